import { DomainError, ForbiddenError } from '@wp/http';

/**
 * Codes of the role rules shared by organization and project members (docs/api.md § Errors;
 * docs/architecture.md § Decisions where the contract is silent statuses). The contract's own codes
 * are verbatim.
 */
export type MembershipErrorCode =
  | 'CANNOT_CHANGE_OWN_ROLE'
  | 'INVALID_ROLE_TRANSITION'
  | 'INSUFFICIENT_PERMISSIONS'
  | 'ALREADY_MEMBER'
  | 'MEMBER_NOT_FOUND';

/** 422 `CANNOT_CHANGE_OWN_ROLE`: a user tries to change (or deny) their own role. */
export class CannotChangeOwnRoleError extends DomainError {
  constructor() {
    super('rule', 'CANNOT_CHANGE_OWN_ROLE', 'Cannot change own role', {
      detail: 'You cannot change your own role; ask another owner or admin.',
      source: { pointer: '/role' },
    });
  }
}

/**
 * 422 `INVALID_ROLE_TRANSITION`: the change would leave the organization without an OWNER
 * (demoting or removing the last owner); ownership must be transferred first.
 */
export class InvalidRoleTransitionError extends DomainError {
  constructor(detail = 'The last owner cannot be demoted or removed; transfer ownership first.') {
    super('rule', 'INVALID_ROLE_TRANSITION', 'Invalid role transition', { detail });
  }
}

/**
 * 403 `INSUFFICIENT_PERMISSIONS`: the caller may manage members but not at this level — granting
 * a role above their own (an ADMIN promoting to OWNER) or acting on a member whose role is
 * above their own.
 */
export class InsufficientPermissionsError extends ForbiddenError {
  constructor(detail = 'You cannot grant or change a role above your own.') {
    super(detail, 'INSUFFICIENT_PERMISSIONS');
  }
}

/** 409 `ALREADY_MEMBER`: add_user for someone who already holds a membership there. */
export class AlreadyMemberError extends DomainError {
  constructor(where: 'organization' | 'project') {
    super('conflict', 'ALREADY_MEMBER', 'Already a member', {
      detail: `This user is already a member of the ${where}; change their role instead.`,
    });
  }
}

/** 404 for a user id that holds no membership there. */
export class MemberNotFoundError extends DomainError {
  constructor() {
    super('not_found', 'MEMBER_NOT_FOUND', 'Member not found');
  }
}
