import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { storeUnavailable, type DomainError } from '@wp/http';
import { RateLimiterFactory } from '@wp/security';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AUTH_CONFIG, type AuthConfig } from '../../config/auth.config.js';
import { RateLimitedError, type RateLimitName } from './rate-limits.errors.js';

/**
 * The auth service's rate limits (docs/api.md § Limits;
 * docs/architecture.md § Lifetimes and limits), fixed windows kept with rate-limiter-flexible in
 * the mode's shared store (`RateLimiterFactory`: Redis, or the platform database in embedded mode),
 * so every replica shares them and they survive a restart. Keys are SHA-256 digests: no email or
 * phone number is stored there.
 *
 * `consume` RESERVES a point before the guarded work runs: with 5 points, 100 concurrent login
 * attempts run at most 5 password verifications; the rest are refused without touching argon2.
 * A limit of 0 switches that limit off.
 */
@Injectable()
export class RateLimits {
  private readonly limiters: Record<RateLimitName, RateLimiterAbstract | null>;

  constructor(factory: RateLimiterFactory, @Inject(AUTH_CONFIG) config: AuthConfig) {
    const make = (name: RateLimitName, points: number, duration: number) =>
      points === 0 ? null : factory.create({ keyPrefix: `rl:${name}`, points, duration });
    this.limiters = {
      login: make('login', config.LOGIN_RATE_LIMIT, config.LOGIN_RATE_WINDOW_SECONDS),
      registration: make(
        'registration',
        config.REGISTRATION_RATE_LIMIT,
        config.REGISTRATION_RATE_WINDOW_SECONDS,
      ),
      validation: make(
        'validation',
        config.VALIDATION_RATE_LIMIT,
        config.VALIDATION_RATE_WINDOW_SECONDS,
      ),
      password_reset: make(
        'password_reset',
        config.PASSWORD_RESET_RATE_LIMIT,
        config.PASSWORD_RESET_RATE_WINDOW_SECONDS,
      ),
      activation_resend: make(
        'activation_resend',
        config.ACTIVATION_RESEND_LIMIT,
        config.ACTIVATION_RESEND_WINDOW_SECONDS,
      ),
      oidc_sign_in: make(
        'oidc_sign_in',
        config.OIDC_SIGN_IN_RATE_LIMIT,
        config.OIDC_SIGN_IN_RATE_WINDOW_SECONDS,
      ),
      passkey_options: make(
        'passkey_options',
        config.PASSKEY_OPTIONS_RATE_LIMIT,
        config.PASSKEY_OPTIONS_RATE_WINDOW_SECONDS,
      ),
    };
  }

  /**
   * Reserves one point of `limit` for `key`.
   * @throws RateLimitedError 429 (with Retry-After) when the window's points are used up
   * @throws DomainError 503 `UNAVAILABLE` (`Retry-After: 1`) when the store does not answer
   */
  async consume(limit: RateLimitName, key: string): Promise<void> {
    const limiter = this.limiters[limit];
    if (!limiter) return;
    try {
      await limiter.consume(digest(key));
    } catch (error) {
      if (error instanceof RateLimiterRes) {
        throw new RateLimitedError(limit, Math.max(1, Math.ceil(error.msBeforeNext / 1000)));
      }
      throw unavailable();
    }
  }

  /** Forgets the points used by `key` (a successful login resets its failure count). */
  async reset(limit: RateLimitName, key: string): Promise<void> {
    const limiter = this.limiters[limit];
    if (!limiter) return;
    try {
      await limiter.delete(digest(key));
    } catch {
      throw unavailable();
    }
  }
}

function digest(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('base64url');
}

/** 503 with `Retry-After` (docs/operations.md § Without Redis). */
function unavailable(): DomainError {
  return storeUnavailable('The rate limit could not be checked');
}
