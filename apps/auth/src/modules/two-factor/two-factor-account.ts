import { TxHost } from '@wp/persistence';
import { Injectable } from '@nestjs/common';
import { ForbiddenError, UnauthenticatedError } from '@wp/http';
import { usernameKey } from '@wp/identity';
import type { Principal } from '@wp/security';
import { PasswordHasher } from '../passwords/password-hasher.js';
import { CurrentPasswordInvalidError } from '../passwords/passwords.errors.js';
import { RateLimits } from '../rate-limits/rate-limits.service.js';
import type { User } from '../accounts/user.entity.js';
import { UsersRepository } from '../accounts/users.repository.js';
import {
  proofOf,
  SecondFactorVerifier,
  type SecondFactorMethod,
} from './second-factor.verifier.js';
import { InvalidTwoFactorCodeError, TwoFactorNotEnabledError } from './two-factor.errors.js';

/** The per-username login limit's key of an account (wrong codes and passwords count there). */
export function loginLimitKey(user: Pick<User, 'id' | 'email' | 'phone'>): string {
  return usernameKey(user.email ?? user.phone ?? user.id);
}

/**
 * What the two-factor routes of the signed-in user share: the account behind a user token, a
 * password re-check and a second-factor check that both draw on the per-username login limit
 * (so a stolen access token cannot guess faster than a login could).
 */
@Injectable()
export class TwoFactorAccount {
  constructor(
    private readonly txHost: TxHost,
    private readonly users: UsersRepository,
    private readonly passwords: PasswordHasher,
    private readonly verifier: SecondFactorVerifier,
    private readonly limits: RateLimits,
  ) {}

  /**
   * @throws ForbiddenError 403 `USER_TOKEN_REQUIRED` for agent tokens;
   *   UnauthenticatedError 401 `ACCOUNT_INACTIVE` when the account is not active
   */
  async activeUser(principal: Principal): Promise<User> {
    if (principal.type !== 'user') {
      throw new ForbiddenError('Only users have two-factor authentication.', 'USER_TOKEN_REQUIRED');
    }
    const user = await this.users.findById(principal.id);
    if (!user || user.status !== 'active') {
      throw new UnauthenticatedError('The account is not active.', 'ACCOUNT_INACTIVE');
    }
    return user;
  }

  /**
   * Re-checks the account password (enrolment needs it: an access token alone must not be
   * enough to put an authenticator on someone's account).
   * @throws CurrentPasswordInvalidError 422; RateLimitedError 429
   */
  async checkPassword(user: User, password: string): Promise<void> {
    const key = loginLimitKey(user);
    await this.limits.consume('login', key);
    if (!(await this.passwords.verify(user.passwordHash, password))) {
      throw new CurrentPasswordInvalidError('/password');
    }
    await this.limits.reset('login', key);
  }

  /**
   * Checks a second factor of an account with two-factor on and runs `work` in the same
   * transaction when it is accepted (a spent recovery code and the change commit together).
   * @throws TwoFactorNotEnabledError 409; ValidationFailedError 400 (no or two proofs);
   *   InvalidTwoFactorCodeError 422; RateLimitedError 429
   */
  async withSecondFactor<T>(
    user: User,
    body: { code?: string; recovery_code?: string },
    work: (method: SecondFactorMethod) => Promise<T>,
  ): Promise<T> {
    if (!user.twoFactorEnabled) throw new TwoFactorNotEnabledError();
    const proof = proofOf(body);
    const key = loginLimitKey(user);
    await this.limits.consume('login', key);
    const outcome = await this.txHost.withTransaction(async () => {
      const method = await this.verifier.verify(user.id, proof);
      return method === null ? null : { value: await work(method) };
    });
    if (outcome === null) throw new InvalidTwoFactorCodeError(false);
    await this.limits.reset('login', key);
    return outcome.value;
  }
}
