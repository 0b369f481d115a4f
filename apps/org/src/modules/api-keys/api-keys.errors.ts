import { DomainError } from '@wp/http';

export type ApiKeyErrorCode = 'NOT_FOUND';

/** 404 for a key id that is not a key of this project. */
export class ApiKeyNotFoundError extends DomainError {
  constructor() {
    super('not_found', 'NOT_FOUND', 'API key not found');
  }
}
