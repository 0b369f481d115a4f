import { availableParallelism } from 'node:os';
import { Inject, Injectable } from '@nestjs/common';
import { hash, verify } from '@node-rs/argon2';
import pLimit, { type LimitFunction } from 'p-limit';
import { AUTH_CONFIG, type AuthConfig } from '../../config/auth.config.js';

/** `Algorithm.Argon2id` of @node-rs/argon2 (a const enum, unusable under isolatedModules). */
const ARGON2ID = 2;

/**
 * OWASP Password Storage Cheat Sheet, argon2id: m = 19 MiB, t = 2, p = 1.
 * https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html
 */
export const ARGON2_OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

/**
 * argon2id hashing with bounded concurrency (docs/architecture.md § Measured limits): at most one
 * hash per core runs at once, the rest wait in line, so a burst of logins never starves the thread
 * pool that token checks and I/O also use. The line is p-limit's (first come, first served).
 */
@Injectable()
export class PasswordHasher {
  private readonly run: LimitFunction;
  /** Password verifications started (observable by tests and metrics). */
  verifications = 0;
  /** Password hashes started (registration, reset, change). */
  hashes = 0;

  constructor(@Inject(AUTH_CONFIG) config: AuthConfig) {
    this.run = pLimit(config.PASSWORD_HASH_CONCURRENCY || availableParallelism());
  }

  hash(password: string): Promise<string> {
    this.hashes++;
    return this.run(() => hash(password, ARGON2_OPTIONS));
  }

  private dummy?: Promise<string>;

  /**
   * Constant-time verification; false for a malformed stored hash. With no stored hash (unknown
   * user) a dummy hash is verified instead, so both answers take the same time.
   */
  async verify(stored: string | null, password: string): Promise<boolean> {
    this.verifications++;
    if (stored === null) {
      this.dummy ??= hash('dummy-password-for-timing', ARGON2_OPTIONS);
      const dummy = await this.dummy;
      await this.run(() => verify(dummy, password).catch(() => false));
      return false;
    }
    return this.run(() => verify(stored, password).catch(() => false));
  }
}
