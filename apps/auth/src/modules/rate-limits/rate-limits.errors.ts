import { DomainError } from '@wp/http';

export type RateLimitName =
  | 'login'
  | 'registration'
  | 'validation'
  | 'password_reset'
  | 'activation_resend'
  | 'oidc_sign_in'
  | 'passkey_options';

const WHAT: Record<RateLimitName, string> = {
  login: 'Too many login attempts for this username.',
  registration: 'Too many registrations for this username.',
  validation: 'Too many validation requests from this address.',
  password_reset: 'Too many password reset requests for this email.',
  activation_resend: 'Too many activation codes requested for this account.',
  oidc_sign_in: 'Too many provider sign-in requests from this address.',
  passkey_options: 'Too many passkey challenges requested.',
};

/**
 * 429 `RATE_LIMITED` with a `Retry-After` header (seconds) and `meta.limit` naming the limit
 * (docs/architecture.md § Decisions where the contract is silent; docs/api.md § Limits).
 */
export class RateLimitedError extends DomainError {
  constructor(limit: RateLimitName, retryAfterSeconds: number) {
    super('rate_limited', 'RATE_LIMITED', 'Too many requests', {
      detail: `${WHAT[limit]} Retry in ${retryAfterSeconds} s.`,
      retryAfter: retryAfterSeconds,
      meta: { limit, retryAfter: retryAfterSeconds },
    });
  }
}
