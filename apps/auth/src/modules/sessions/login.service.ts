import { Injectable } from '@nestjs/common';
import type { RequestMeta } from '@wp/http';
import { usernameKey, usernameLookupKey } from '@wp/identity';
import { AuthAudit } from '../audit/auth-audit.js';
import { ssoRefusalOf } from '../federation/org-sso-state.js';
import { PasswordHasher } from '../passwords/password-hasher.js';
import { RateLimits } from '../rate-limits/rate-limits.service.js';
import { MfaChallenges } from '../two-factor/mfa-challenges.js';
import { TwoFactorRequiredError } from '../two-factor/two-factor.errors.js';
import type { SessionResource } from './session.serializer.js';
import { ActivationRequiredError, InvalidCredentialsError } from './sessions.errors.js';
import { LoginLookup } from './login-lookup.js';
import { LoginMetrics } from './login.metrics.js';
import { SessionsService } from './sessions.service.js';

/** `POST /oauth/token` with username and password (docs/api.md § Accounts and sessions). */
@Injectable()
export class LoginService {
  constructor(
    private readonly lookup: LoginLookup,
    private readonly passwords: PasswordHasher,
    private readonly sessions: SessionsService,
    private readonly limits: RateLimits,
    private readonly challenges: MfaChallenges,
    private readonly audit: AuthAudit,
    private readonly metrics: LoginMetrics,
  ) {}

  /**
   * Reserves a point of the per-username login limit BEFORE verifying (docs/api.md § Limits), so
   * concurrent guesses beyond the limit never reach argon2; a correct password clears the count
   * — except for an account with two-factor on, whose count is cleared only by the second step
   * (docs/auth.md § Two-factor login), so wrong codes share the same limit.
   * Sign-ins of known accounts, successful or not, go to the audit log (`user.signed_in`).
   * @throws RateLimitedError 429 with Retry-After once `LOGIN_RATE_LIMIT` attempts were made in
   *   the window without a success
   * @throws InvalidCredentialsError 401 for an unknown user or a wrong password (same body)
   * @throws ActivationRequiredError 403 with `meta.user_id` for a pending account
   * @throws TwoFactorRequiredError 403 with `meta.challenge_token`: two-factor is on, no session
   * @throws SsoRequiredError 403 `SSO_REQUIRED` with `meta.connection`: the address is at a
   *   verified domain of an organization that requires its own provider (docs/auth.md
   *   § Organization single sign-on); checked before the password, whatever the account
   */
  async login(
    username: string,
    password: string,
    appId: string,
    meta: RequestMeta,
  ): Promise<SessionResource> {
    try {
      return await this.attempt(username, password, appId, meta);
    } catch (error) {
      this.metrics.failed(error);
      throw error;
    }
  }

  private async attempt(
    username: string,
    password: string,
    appId: string,
    meta: RequestMeta,
  ): Promise<SessionResource> {
    const key = usernameKey(username);
    // The limit's reservation (Redis) and the lookup (PostgreSQL: the account and the realm of
    // the username's domain in one statement) are independent round trips: run together; the
    // verification below still waits for the reservation. Every spelling of the username finds
    // the one account (docs/auth.md § Usernames).
    const [, { account: user, realm }] = await Promise.all([
      this.limits.consume('login', key),
      this.lookup.find(usernameLookupKey(username), username),
    ]);
    const refusal = ssoRefusalOf(realm);
    if (refusal) throw refusal;
    const ok = await this.passwords.verify(user?.passwordHash ?? null, password);
    if (!user || !ok || user.status === 'disabled') {
      if (user) {
        await this.audit.record({
          action: 'user.signed_in',
          outcome: 'failure',
          user,
          meta,
          details: { method: 'password', reason: 'invalid_credentials' },
        });
      }
      throw new InvalidCredentialsError();
    }
    if (user.status === 'pending_activation') {
      await this.limits.reset('login', key);
      throw new ActivationRequiredError(user.id);
    }
    if (user.twoFactorEnabled) {
      const challenge = await this.challenges.issue(user.id, appId);
      throw new TwoFactorRequiredError(challenge.token, challenge.expiresIn);
    }
    // Independent round trips (Redis, PostgreSQL): run together. The audit entry is written by
    // the session's own statement (one round trip, one commit: both or neither).
    const event = this.audit.draft({
      action: 'user.signed_in',
      user,
      meta,
      details: { method: 'password' },
    });
    const [, session] = await Promise.all([
      this.limits.reset('login', key),
      this.sessions.open(user, appId, meta, undefined, event),
    ]);
    this.audit.written();
    return session;
  }
}
