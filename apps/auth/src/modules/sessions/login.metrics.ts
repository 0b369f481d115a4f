import { Inject, Injectable } from '@nestjs/common';
import { METRICS_REGISTRY } from '@wp/observability';
import { Counter, type Registry } from 'prom-client';
import { RateLimitedError } from '../rate-limits/rate-limits.errors.js';
import { TwoFactorRequiredError } from '../two-factor/two-factor.errors.js';
import { ActivationRequiredError, InvalidCredentialsError } from './sessions.errors.js';

type LoginFailureReason =
  'invalid_credentials' | 'rate_limited' | 'activation_required' | 'two_factor_required' | 'error';

/**
 * `auth_login_failures_total{reason}` (docs/operations.md § Metrics): password logins that
 * opened no session — `invalid_credentials` (unknown user or wrong password), `rate_limited`
 * (429 of the per-username limit), `activation_required`, `two_factor_required` (the first step
 * of a two-factor login: not a failure of the user, counted to read the others against), `error`.
 */
@Injectable()
export class LoginMetrics {
  private readonly failures: Counter<'reason'>;

  constructor(@Inject(METRICS_REGISTRY) registry: Registry) {
    this.failures = new Counter({
      name: 'auth_login_failures_total',
      help: 'Password logins that opened no session, by reason',
      labelNames: ['reason'],
      registers: [registry],
    });
  }

  failed(error: unknown): void {
    this.failures.inc({ reason: reasonOf(error) });
  }
}

function reasonOf(error: unknown): LoginFailureReason {
  if (error instanceof InvalidCredentialsError) return 'invalid_credentials';
  if (error instanceof RateLimitedError) return 'rate_limited';
  if (error instanceof ActivationRequiredError) return 'activation_required';
  if (error instanceof TwoFactorRequiredError) return 'two_factor_required';
  return 'error';
}
