import { DomainError } from '@wp/http';

export type ProjectErrorCode = 'PROJECT_ID_MISMATCH';

/**
 * 409 `PROJECT_ID_MISMATCH`: `data.id` of a project update differs from the path's
 * `projectId` (docs/api.md § Errors, other rules).
 */
export class ProjectIdMismatchError extends DomainError {
  constructor() {
    super('conflict', 'PROJECT_ID_MISMATCH', 'Id mismatch', {
      detail: 'data.id must equal the projectId of the path.',
      source: { pointer: '/data/id' },
    });
  }
}
