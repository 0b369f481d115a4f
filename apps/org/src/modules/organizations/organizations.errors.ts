import { DomainError } from '@wp/http';

export type OrganizationErrorCode = 'ORGANIZATION_ID_MISMATCH';

/** 409 `ORGANIZATION_ID_MISMATCH`: a PATCH body's `data.id` differs from the path id. */
export class OrganizationIdMismatchError extends DomainError {
  constructor() {
    super('conflict', 'ORGANIZATION_ID_MISMATCH', 'Id mismatch', {
      detail: 'data.id must equal the organizationId of the path.',
      source: { pointer: '/data/id' },
    });
  }
}
