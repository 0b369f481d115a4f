import { TxHost } from '@wp/persistence';
import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Outbox } from '@wp/messaging';
import type { RequestMeta } from '@wp/http';
import { emailKey, usernameKey } from '@wp/identity';
import { isWellFormedToken } from '@wp/security';
import { AUTH_CONFIG, type AuthConfig } from '../../config/auth.config.js';
import { AuthAudit } from '../audit/auth-audit.js';
import { OrgSsoState } from '../federation/org-sso-state.js';
import { NotificationComposer } from '../notifications/notification-composer.js';
import { PasswordHasher } from '../passwords/password-hasher.js';
import { RateLimits } from '../rate-limits/rate-limits.service.js';
import { SessionsService } from '../sessions/sessions.service.js';
import { UsersRepository } from '../accounts/users.repository.js';
import { ResetTokenInvalidError } from './password-reset.errors.js';
import { PasswordResetRepository } from './password-reset.repository.js';
import {
  passwordOperation,
  resetRequested,
  type PasswordOperationResource,
} from './password-reset.serializer.js';

/** A reset token: `prt_` + 256 random bits (base64url), within the token character rule. */
function newResetToken(): string {
  return `prt_${randomBytes(32).toString('base64url')}`;
}

function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * Forgotten passwords (docs/api.md § Accounts and sessions: `reset_request`, `reset`;
 * docs/api.md § Errors "Other rules"): enumeration-safe requests, single-use tokens with a lifetime
 * (`PASSWORD_RESET_TOKEN_TTL_SECONDS`, 1 h), and a reset that ends every session of the account.
 */
@Injectable()
export class PasswordResetService {
  constructor(
    private readonly txHost: TxHost,
    private readonly users: UsersRepository,
    private readonly resets: PasswordResetRepository,
    private readonly passwords: PasswordHasher,
    private readonly sessions: SessionsService,
    private readonly composer: NotificationComposer,
    private readonly outbox: Outbox,
    private readonly limits: RateLimits,
    private readonly audit: AuthAudit,
    private readonly ssoState: OrgSsoState,
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
  ) {}

  /**
   * `POST /users/password/reset_request`: the same 200 body whether or not the email has an
   * account, through the same work (rate limit, token, one transaction running the same
   * statement); only an existing account gets a token stored and its mail enqueued.
   * @throws RateLimitedError 429 beyond `PASSWORD_RESET_RATE_LIMIT` per email (counted for
   *   every email, so it reveals nothing either)
   * @throws SsoRequiredError 403 `SSO_REQUIRED` with `meta: {connection, domain}` when the
   *   address is at a verified domain of an organization that requires its own provider —
   *   decided by the domain alone, before any account is looked up, so it reveals nothing
   *   about accounts (docs/auth.md § Organization single sign-on)
   */
  async requestReset(rawEmail: string): Promise<PasswordOperationResource> {
    await this.ssoState.assertAllowed(rawEmail);
    // Every spelling of the address (case, width, IDNA, …) is the same account and the same
    // budget (docs/auth.md § Usernames); the mail goes to the account's address as stored.
    await this.limits.consume('password_reset', usernameKey(rawEmail));
    const answer = resetRequested(this.config.PASSWORD_RESET_TOKEN_TTL_SECONDS);
    const token = newResetToken();
    const expiresAt = new Date(Date.now() + this.config.PASSWORD_RESET_TOKEN_TTL_SECONDS * 1000);
    await this.txHost.withTransaction(async () => {
      const key = emailKey(rawEmail) ?? '';
      const account = await this.resets.issue(key, hashToken(token), expiresAt);
      if (account !== null) {
        await this.outbox.enqueue(
          'notify.requested',
          this.composer.passwordReset(account.email, token),
        );
      }
    });
    return answer;
  }

  /**
   * `POST /users/password/reset`: sets the new password, uses the token up, ends every
   * session of the account (families revoked, sids deny-listed) and clears its login limit;
   * `user.password_reset` goes to the audit log in the same transaction.
   * @throws ResetTokenInvalidError 422 wrong/used/expired token or foreign email (one answer)
   * @throws SsoRequiredError 403 `SSO_REQUIRED` as {@link requestReset}, before the token is
   *   looked at: a token mailed before the organization required SSO no longer sets a password
   */
  async reset(
    rawEmail: string,
    newPassword: string,
    token: string,
    meta: RequestMeta,
  ): Promise<PasswordOperationResource> {
    const key = emailKey(rawEmail);
    if (key === null || !isWellFormedToken(token)) throw new ResetTokenInvalidError();
    await this.ssoState.assertAllowed(rawEmail);
    const tokenHash = hashToken(token);
    // Checked before hashing so that guesses cost no argon2 time; re-checked atomically below.
    if ((await this.resets.findValid(key, tokenHash)) === null) {
      throw new ResetTokenInvalidError();
    }
    const passwordHash = await this.passwords.hash(newPassword);
    const ended = await this.txHost.withTransaction(async () => {
      const account = await this.resets.consume(key, tokenHash);
      if (account === null) throw new ResetTokenInvalidError();
      const { userId, email } = account;
      await this.users.updatePasswordHash(userId, passwordHash);
      const count = await this.sessions.endAllOfUser(userId, 'password_reset');
      await this.audit.record({
        action: 'user.password_reset',
        user: { id: userId, email },
        meta,
        details: { sessionsEnded: count },
      });
      return count;
    });
    await this.limits.reset('login', usernameKey(rawEmail));
    return passwordOperation('Password updated. Sign in with the new password.', ended);
  }
}
