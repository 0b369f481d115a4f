import { TxHost } from '@wp/persistence';
import { Inject, Injectable } from '@nestjs/common';
import type { RequestMeta } from '@wp/http';
import { isWellFormedToken } from '@wp/security';
import { AUTH_CONFIG, type AuthConfig } from '../../config/auth.config.js';
import { AuthAudit } from '../audit/auth-audit.js';
import { OrgSsoState } from '../federation/org-sso-state.js';
import { RateLimits } from '../rate-limits/rate-limits.service.js';
import { MfaChallenges } from '../two-factor/mfa-challenges.js';
import { MfaChallengesRepository } from '../two-factor/mfa-challenges.repository.js';
import { SecondFactorVerifier, proofOf } from '../two-factor/second-factor.verifier.js';
import { loginLimitKey } from '../two-factor/two-factor-account.js';
import {
  InvalidTwoFactorCodeError,
  MfaChallengeInvalidError,
} from '../two-factor/two-factor.errors.js';
import type { SessionResource } from './session.serializer.js';
import { SessionsService } from './sessions.service.js';

type Outcome =
  | { kind: 'session'; session: SessionResource }
  | { kind: 'wrong_code'; attemptsRemaining: number }
  | { kind: 'challenge_gone' };

/**
 * `POST /oauth/token/mfa`: the second step of a login with two-factor on (docs/auth.md
 * § Two-factor login). The challenge token of `TWO_FACTOR_REQUIRED` and a TOTP code (±1 step,
 * never twice) or a recovery code (once) answer the contract's session envelope.
 *
 * Every attempt draws on the per-username login limit (429 beyond it); a success clears it. A
 * challenge is redeemed once, dies after `MFA_CHALLENGE_MAX_ATTEMPTS` wrong codes, and only
 * works for the client application that logged in. The check, the redemption, the session and
 * the audit entry commit in one transaction, the challenge row locked, so two concurrent
 * attempts with one challenge cannot both open a session.
 */
@Injectable()
export class MfaLoginService {
  constructor(
    private readonly txHost: TxHost,
    private readonly challenges: MfaChallenges,
    private readonly challengeRows: MfaChallengesRepository,
    private readonly verifier: SecondFactorVerifier,
    private readonly sessions: SessionsService,
    private readonly limits: RateLimits,
    private readonly audit: AuthAudit,
    private readonly ssoState: OrgSsoState,
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
  ) {}

  /**
   * @throws ValidationFailedError 400 (not exactly one of `code`, `recovery_code`)
   * @throws MfaChallengeInvalidError 401 unknown, expired, redeemed, used-up or foreign challenge
   * @throws InvalidTwoFactorCodeError 401 with `meta.attemptsRemaining`
   * @throws RateLimitedError 429
   * @throws SsoRequiredError 403 `SSO_REQUIRED`: the account's address is at a verified domain
   *   of an organization that started requiring SSO after the first step (docs/auth.md
   *   § Organization single sign-on); the challenge is left as it was
   */
  async complete(
    body: { challenge_token: string; code?: string; recovery_code?: string },
    appId: string,
    meta: RequestMeta,
  ): Promise<SessionResource> {
    const proof = proofOf(body);
    if (!isWellFormedToken(body.challenge_token)) throw new MfaChallengeInvalidError();
    const challenge = await this.challenges.find(body.challenge_token);
    const user = challenge?.user;
    if (!challenge || !user || challenge.appId !== appId) throw new MfaChallengeInvalidError();
    if (user.status !== 'active' || !user.twoFactorEnabled) throw new MfaChallengeInvalidError();
    await this.ssoState.assertAllowed(user.email);
    const key = loginLimitKey(user);
    await this.limits.consume('login', key);
    const outcome = await this.txHost.withTransaction(async (): Promise<Outcome> => {
      if (!(await this.challengeRows.lockLive(challenge.id))) {
        return { kind: 'challenge_gone' };
      }
      const method = await this.verifier.verify(user.id, proof);
      if (method === null) {
        const attemptsRemaining = await this.challengeRows.fail(
          challenge.id,
          this.config.MFA_CHALLENGE_MAX_ATTEMPTS,
        );
        await this.audit.record({
          action: 'user.signed_in',
          outcome: 'failure',
          user,
          meta,
          details: { method: `password+${proof.method}`, reason: 'invalid_second_factor' },
        });
        return { kind: 'wrong_code', attemptsRemaining };
      }
      await this.challengeRows.consume(challenge.id);
      const session = await this.sessions.open(user, appId, meta);
      await this.audit.record({
        action: 'user.signed_in',
        user,
        meta,
        details: { method: `password+${method}` },
      });
      return { kind: 'session', session };
    });
    switch (outcome.kind) {
      case 'challenge_gone':
        throw new MfaChallengeInvalidError();
      case 'wrong_code':
        throw new InvalidTwoFactorCodeError(true, outcome.attemptsRemaining);
      case 'session':
        await this.limits.reset('login', key);
        return outcome.session;
    }
  }
}
