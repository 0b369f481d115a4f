import { DomainError } from '@wp/http';

export type ProjectMemberErrorCode =
  'CANNOT_DENY_ORGANIZATION_ADMIN' | 'ACCESS_ALREADY_DENIED' | 'ACCESS_NOT_DENIED';

/**
 * 422 `CANNOT_DENY_ORGANIZATION_ADMIN`: organization OWNERs and ADMINs hold implicit access to
 * every project (`effectiveProjectRole`), so denying it would change nothing; change their
 * organization role first.
 */
export class CannotDenyOrganizationAdminError extends DomainError {
  constructor() {
    super('rule', 'CANNOT_DENY_ORGANIZATION_ADMIN', 'Cannot deny access', {
      detail:
        'Organization owners and admins have access to every project; change their organization role first.',
    });
  }
}

/** 409 `ACCESS_ALREADY_DENIED`: `deny_access` for a member whose access is already denied. */
export class AccessAlreadyDeniedError extends DomainError {
  constructor() {
    super('conflict', 'ACCESS_ALREADY_DENIED', 'Access already denied', {
      detail: 'This member’s access is already denied; use restore_access to give it back.',
    });
  }
}

/** 409 `ACCESS_NOT_DENIED`: `restore_access` for a member who has access. */
export class AccessNotDeniedError extends DomainError {
  constructor() {
    super('conflict', 'ACCESS_NOT_DENIED', 'Access not denied', {
      detail: 'This member has access; there is nothing to restore.',
    });
  }
}
