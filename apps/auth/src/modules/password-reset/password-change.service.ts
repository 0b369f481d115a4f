import { TxHost } from '@wp/persistence';
import { Injectable } from '@nestjs/common';
import { ForbiddenError, UnauthenticatedError, type RequestMeta } from '@wp/http';
import { usernameKey } from '@wp/identity';
import type { Principal } from '@wp/security';
import { AuthAudit } from '../audit/auth-audit.js';
import { PasswordHasher } from '../passwords/password-hasher.js';
import { RateLimits } from '../rate-limits/rate-limits.service.js';
import { SessionsService } from '../sessions/sessions.service.js';
import type { User } from '../accounts/user.entity.js';
import { UsersRepository } from '../accounts/users.repository.js';
import { CurrentPasswordInvalidError } from '../passwords/passwords.errors.js';
import { PasswordResetRepository } from './password-reset.repository.js';
import { passwordOperation, type PasswordOperationResource } from './password-reset.serializer.js';

/** `POST /users/password/change` (docs/api.md § Accounts and sessions, header set B). */
@Injectable()
export class PasswordChangeService {
  constructor(
    private readonly txHost: TxHost,
    private readonly users: UsersRepository,
    private readonly resets: PasswordResetRepository,
    private readonly passwords: PasswordHasher,
    private readonly sessions: SessionsService,
    private readonly limits: RateLimits,
    private readonly audit: AuthAudit,
  ) {}

  /**
   * Sets a new password and ends the user's OTHER sessions (the caller's stays signed in). When
   * `currentPassword` is sent it must match; such checks share the per-username login limit, so
   * a stolen access token cannot be used to guess the password faster than a login could.
   * Outstanding reset tokens are dropped. The change goes to the audit log
   * (`user.password_changed`) in the same transaction.
   * @throws ForbiddenError 403 for agent tokens; UnauthenticatedError 401 inactive account
   * @throws CurrentPasswordInvalidError 422; RateLimitedError 429
   */
  async change(
    principal: Principal,
    newPassword: string,
    currentPassword: string | undefined,
    meta: RequestMeta,
  ): Promise<PasswordOperationResource> {
    if (principal.type !== 'user') {
      throw new ForbiddenError('Only users have passwords.', 'USER_TOKEN_REQUIRED');
    }
    const user = await this.users.findById(principal.id);
    if (!user || user.status !== 'active') {
      throw new UnauthenticatedError('The account is not active.', 'ACCOUNT_INACTIVE');
    }
    if (currentPassword !== undefined) await this.checkCurrent(user, currentPassword);
    const passwordHash = await this.passwords.hash(newPassword);
    const ended = await this.txHost.withTransaction(async () => {
      await this.users.findByIdForUpdate(user.id);
      await this.users.updatePasswordHash(user.id, passwordHash);
      await this.resets.deleteForUser(user.id);
      const count = await this.sessions.endAllOfUser(
        user.id,
        'password_changed',
        principal.sessionId,
      );
      await this.audit.record({
        action: 'user.password_changed',
        user,
        meta,
        details: { sessionsEnded: count },
      });
      return count;
    });
    return passwordOperation('Password changed. Other sessions were signed out.', ended);
  }

  private async checkCurrent(user: User, currentPassword: string): Promise<void> {
    const key = usernameKey(user.email ?? user.phone ?? user.id);
    await this.limits.consume('login', key);
    if (!(await this.passwords.verify(user.passwordHash, currentPassword))) {
      throw new CurrentPasswordInvalidError();
    }
    await this.limits.reset('login', key);
  }
}
