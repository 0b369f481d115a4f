import { DomainError } from '@wp/http';

export type LlmKeyErrorCode = 'NOT_FOUND';

/** 404 for an id that is not an LLM key of this project. */
export class LlmApiKeyNotFoundError extends DomainError {
  constructor() {
    super('not_found', 'NOT_FOUND', 'LLM API key not found');
  }
}
