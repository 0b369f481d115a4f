import { DomainError, type ErrorItem, type ErrorSource } from './domain-error.js';

export interface ValidationIssue {
  source: ErrorSource;
  detail: string;
}

/**
 * 400 `VALIDATION_FAILED`, one error item per offending field, each with a `source.pointer`
 * (body, RFC 6901) or `source.parameter` (query or path).
 */
export class ValidationFailedError extends DomainError {
  constructor(readonly issues: ValidationIssue[]) {
    const items: ErrorItem[] = issues.map((issue) => ({
      status: '400',
      code: 'VALIDATION_FAILED',
      title: 'Invalid request',
      detail: issue.detail,
      source: issue.source,
    }));
    const [first, ...rest] = items;
    super('invalid', 'VALIDATION_FAILED', 'Invalid request', {
      detail: first?.detail ?? 'The request is invalid.',
      source: first?.source,
      items: rest,
    });
  }

  /** A single-field failure, e.g. `ValidationFailedError.at({pointer: '/data/id'}, 'must equal …')`. */
  static at(source: ErrorSource, detail: string): ValidationFailedError {
    return new ValidationFailedError([{ source, detail }]);
  }
}
