import { DomainError, ForbiddenError } from '@wp/http';

export type AccessErrorCode = 'NOT_FOUND' | 'FORBIDDEN' | 'ORGANIZATION_REQUIRES_TWO_FACTOR';

/**
 * 404 for an organization that does not exist or that the caller does not belong to
 * (docs/architecture.md § Identity and access: never 403 for a foreign tenant, so existence does
 * not leak).
 */
export class OrganizationNotFoundError extends DomainError {
  constructor() {
    super('not_found', 'NOT_FOUND', 'Organization not found');
  }
}

/** 404 for a project that does not exist, is in another organization, or is hidden from the caller. */
export class ProjectNotFoundError extends DomainError {
  constructor() {
    super('not_found', 'NOT_FOUND', 'Project not found');
  }
}

/** 403 `FORBIDDEN`: a member of the tenant without the permission the action needs. */
export class PermissionDeniedError extends ForbiddenError {
  constructor(permission: string) {
    super(`Your role does not grant ${permission}.`, 'FORBIDDEN');
  }
}

/**
 * 403 `ORGANIZATION_REQUIRES_TWO_FACTOR`: the organization requires two-factor authentication
 * (its security policy) and the caller's account does not have it on (docs/org.md § Two-factor
 * policy). Only members get it: a stranger still gets 404.
 */
export class OrganizationRequiresTwoFactorError extends ForbiddenError {
  constructor() {
    super(
      'This organization requires two-factor authentication. Turn it on for your account (POST /users/me/two_factor) to continue.',
      'ORGANIZATION_REQUIRES_TWO_FACTOR',
    );
  }
}
