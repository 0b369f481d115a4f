import { DomainError, ValidationFailedError } from '@wp/http';

/** 404: no such endpoint in this organization (another organization's id included). */
export class WebhookEndpointNotFoundError extends DomainError {
  constructor() {
    super('not_found', 'NOT_FOUND', 'Webhook endpoint not found');
  }
}

/** 404: no such delivery of this endpoint. */
export class WebhookDeliveryNotFoundError extends DomainError {
  constructor() {
    super('not_found', 'NOT_FOUND', 'Webhook delivery not found');
  }
}

/** 422 `WEBHOOK_ENDPOINT_LIMIT`: the organization has the most endpoints allowed. */
export class WebhookEndpointLimitError extends DomainError {
  constructor(limit: number) {
    super('rule', 'WEBHOOK_ENDPOINT_LIMIT', 'Too many webhook endpoints', {
      detail: `An organization has at most ${limit} webhook endpoints; delete one first.`,
    });
  }
}

/** 422 `WEBHOOK_ENDPOINT_DISABLED`: sending to a disabled endpoint (test, resend, replay). */
export class WebhookEndpointDisabledError extends DomainError {
  constructor() {
    super('rule', 'WEBHOOK_ENDPOINT_DISABLED', 'Webhook endpoint disabled', {
      detail: 'Enable the endpoint first (PATCH with enabled true).',
    });
  }
}

/**
 * 400 `VALIDATION_FAILED` at `/data/attributes/url`: not an acceptable endpoint URL
 * (docs/org.md § SSRF defence).
 */
export function urlRefused(detail: string): ValidationFailedError {
  return ValidationFailedError.at({ pointer: '/data/attributes/url' }, detail);
}
