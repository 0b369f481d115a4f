import { DomainError } from '@wp/http';

/** 404: no such domain in this organization (another organization's domain is unknown too). */
export class DomainNotFoundError extends DomainError {
  constructor() {
    super('not_found', 'NOT_FOUND', 'Domain not found');
  }
}

/** 409 `DOMAIN_EXISTS`: the organization already added this domain. */
export class DomainExistsError extends DomainError {
  constructor() {
    super('conflict', 'DOMAIN_EXISTS', 'Domain already added', {
      detail: 'This organization already added this domain.',
      source: { pointer: '/data/attributes/domain' },
    });
  }
}

/** 409 `DOMAIN_TAKEN`: another organization verified this domain first. */
export class DomainTakenError extends DomainError {
  constructor() {
    super('conflict', 'DOMAIN_TAKEN', 'Domain verified by another organization', {
      detail: 'Another organization has verified this domain.',
    });
  }
}

/** 422 `DOMAIN_NOT_VERIFIED`: the TXT record is not (yet) published. */
export class DomainNotVerifiedError extends DomainError {
  constructor(name: string, value: string) {
    super('rule', 'DOMAIN_NOT_VERIFIED', 'Verification record not found', {
      detail: `No TXT record "${value}" at ${name}. Publish it, wait for DNS to propagate, retry.`,
      meta: { recordName: name, recordValue: value },
    });
  }
}

/** 503 `DNS_UNAVAILABLE`: the resolver failed (timeout, refused); nothing changed. */
export class DnsUnavailableError extends DomainError {
  constructor() {
    super('unavailable', 'DNS_UNAVAILABLE', 'DNS unavailable', {
      detail: 'The DNS look-up failed; nothing changed. Retry shortly.',
      retryAfter: 5,
    });
  }
}
