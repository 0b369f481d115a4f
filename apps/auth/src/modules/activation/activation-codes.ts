import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AUTH_CONFIG, type AuthConfig } from '../../config/auth.config.js';

/**
 * 6-digit activation codes (docs/architecture.md § Decisions where the contract is silent): drawn
 * uniformly with the CSPRNG, stored as HMAC-SHA256 keyed with `AUTH_CODE_SECRET` and bound to the
 * account, compared in constant time.
 */
@Injectable()
export class ActivationCodes {
  private readonly secret: Buffer;

  constructor(@Inject(AUTH_CONFIG) config: AuthConfig) {
    this.secret = Buffer.from(config.AUTH_CODE_SECRET, 'utf8');
  }

  /** A new code: six decimal digits, leading zeros kept (`000000` … `999999`). */
  generate(): string {
    return randomInt(0, 1_000_000).toString().padStart(6, '0');
  }

  /** HMAC-SHA256 hex of `<userId>:<code>`. */
  digest(userId: string, code: string): string {
    return createHmac('sha256', this.secret).update(`${userId}:${code}`, 'utf8').digest('hex');
  }

  /** Constant-time comparison of a candidate code with the stored digest. */
  matches(userId: string, code: string, storedDigest: string): boolean {
    const candidate = Buffer.from(this.digest(userId, code), 'hex');
    const stored = Buffer.from(storedDigest, 'hex');
    return candidate.length === stored.length && timingSafeEqual(candidate, stored);
  }
}
