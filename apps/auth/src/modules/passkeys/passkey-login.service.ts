import { Inject, Injectable } from '@nestjs/common';
import {
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
} from '@simplewebauthn/server';
import type { RequestMeta } from '@wp/http';
import { TxHost } from '@wp/persistence';
import { AUTH_CONFIG, type AuthConfig } from '../../config/auth.config.js';
import type { User } from '../accounts/user.entity.js';
import { UsersRepository } from '../accounts/users.repository.js';
import { AuthAudit } from '../audit/auth-audit.js';
import { OrgSsoState } from '../federation/org-sso-state.js';
import { RateLimits } from '../rate-limits/rate-limits.service.js';
import type { SessionResource } from '../sessions/session.serializer.js';
import { SessionsService } from '../sessions/sessions.service.js';
import type { PasskeyTokenRequestDto } from './dto/passkeys.dto.js';
import { challengeOf, userHandleOf } from './passkey-account.js';
import { InvalidPasskeyError, PasskeyChallengeInvalidError } from './passkeys.errors.js';
import { PasskeysRepository, type PasskeyRow } from './passkeys.repository.js';
import { toOptionsResource, type WebauthnOptionsResource } from './passkeys.serializer.js';
import { RelyingParties, type RelyingParty } from './relying-party.js';
import { WebauthnChallenges } from './webauthn-challenges.repository.js';

/**
 * `amr` (RFC 8176 § 2) of a session opened with a user-verified passkey: `hwk` (proof of
 * possession of a key), `user` (user presence) and `mfa` (the authenticator's user verification
 * is a second factor). Org's two-factor policy accepts sessions whose `amr` has `mfa`.
 */
export const PASSKEY_AMR = ['hwk', 'user', 'mfa'] as const;

/**
 * Signing in with a passkey, no username or password (docs/auth.md § Passkeys, "Sign-in"):
 * request options with a single-use challenge bound to the client application, then the
 * assertion of `navigator.credentials.get()` verified against the stored public key, the
 * application's relying party and user verification; the signature counter must move forward.
 * Answers the same session envelope as `POST /oauth/token`.
 */
@Injectable()
export class PasskeyLoginService {
  constructor(
    private readonly txHost: TxHost,
    private readonly users: UsersRepository,
    private readonly passkeys: PasskeysRepository,
    private readonly challenges: WebauthnChallenges,
    private readonly relyingParties: RelyingParties,
    private readonly sessions: SessionsService,
    private readonly audit: AuthAudit,
    private readonly limits: RateLimits,
    private readonly ssoState: OrgSsoState,
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
  ) {}

  /**
   * `POST /oauth/passkey/options` (K): request options for a discoverable credential. Each call
   * stores a challenge, so it is rate limited per client address (`PASSKEY_OPTIONS_RATE_LIMIT`
   * per `PASSKEY_OPTIONS_RATE_WINDOW_SECONDS`).
   * @throws RateLimitedError 429 `RATE_LIMITED` with `Retry-After`
   */
  async options(appId: string, clientAddress: string): Promise<WebauthnOptionsResource> {
    await this.limits.consume('passkey_options', `sign-in:${clientAddress}`);
    const rp = await this.relyingParties.of(appId);
    const ttl = this.config.WEBAUTHN_CHALLENGE_TTL_SECONDS;
    const options = await generateAuthenticationOptions({
      rpID: rp.id,
      userVerification: 'required',
      timeout: ttl * 1000,
    });
    await this.challenges.issue(options.challenge, 'authentication', appId, null);
    return toOptionsResource('passkey_authentication_options', options, ttl);
  }

  /**
   * `POST /oauth/token/passkey` (K): the session envelope of `POST /oauth/token`.
   * @throws PasskeyChallengeInvalidError 401 unknown, expired, used or another application's
   *   challenge (a replayed assertion)
   * @throws InvalidPasskeyError 401 unknown or removed credential, failed verification, counter
   *   not moving forward, inactive account
   * @throws SsoRequiredError 403 `SSO_REQUIRED` with `meta: {connection, domain}` when the
   *   account's address is at a verified domain of an organization that requires its own
   *   provider (docs/auth.md § Organization single sign-on) — checked only once the assertion
   *   verified, so only the passkey's holder learns it; the counter does not move
   */
  async signIn(
    dto: PasskeyTokenRequestDto,
    appId: string,
    meta: RequestMeta,
  ): Promise<SessionResource> {
    const response = dto.credential.response;
    const challenge = challengeOf(response.clientDataJSON);
    if (!challenge) throw new InvalidPasskeyError();
    const spent = await this.challenges.redeem(challenge, 'authentication', appId, null);
    if (!spent) throw new PasskeyChallengeInvalidError(true);
    const passkey = await this.passkeys.findByCredentialId(dto.credential.id);
    const user = passkey && (await this.users.findById(passkey.userId));
    if (!passkey || !user || user.status !== 'active') throw new InvalidPasskeyError();
    const rp = await this.relyingParties.of(appId);
    const verified =
      passkey.rpId === rp.id &&
      this.sameUser(response.userHandle, user.id) &&
      (await this.verify(dto, challenge, rp, passkey));
    if (!verified) return this.refuse(user, meta, 'invalid_passkey');
    await this.ssoState.assertAllowed(user.email, { user, meta, method: 'passkey' });
    const session = await this.txHost.withTransaction(async () => {
      if (!(await this.passkeys.recordUse(passkey.id, verified.newCounter, verified.backedUp))) {
        return null;
      }
      const opened = await this.sessions.open(user, appId, meta, {
        amr: [...PASSKEY_AMR],
        passkeyId: passkey.id,
      });
      await this.audit.record({
        action: 'user.signed_in',
        user,
        meta,
        details: { method: 'passkey', passkeyId: passkey.id },
      });
      return opened;
    });
    return session ?? this.refuse(user, meta, 'counter_not_increased');
  }

  private async refuse(user: User, meta: RequestMeta, reason: string): Promise<never> {
    await this.audit.record({
      action: 'user.signed_in',
      outcome: 'failure',
      user,
      meta,
      details: { method: 'passkey', reason },
    });
    throw new InvalidPasskeyError();
  }

  /** A user handle, when the authenticator returns one, must be the account's. */
  private sameUser(userHandle: string | null | undefined, userId: string): boolean {
    return !userHandle || userHandle === Buffer.from(userHandleOf(userId)).toString('base64url');
  }

  private async verify(
    dto: PasskeyTokenRequestDto,
    challenge: string,
    rp: RelyingParty,
    passkey: PasskeyRow,
  ): Promise<{ newCounter: number; backedUp: boolean } | null> {
    const response = dto.credential.response;
    try {
      const result = await verifyAuthenticationResponse({
        response: {
          ...dto.credential,
          response: { ...dto.credential.response, userHandle: response.userHandle ?? undefined },
          clientExtensionResults: dto.credential.clientExtensionResults ?? {},
        },
        expectedChallenge: challenge,
        expectedOrigin: rp.origins,
        expectedRPID: rp.id,
        credential: {
          id: passkey.credentialId,
          publicKey: new Uint8Array(passkey.publicKey),
          counter: Number(passkey.signCount),
          transports: passkey.transports,
        },
        requireUserVerification: true,
      });
      if (!result.verified || !result.authenticationInfo.userVerified) return null;
      return {
        newCounter: result.authenticationInfo.newCounter,
        backedUp: result.authenticationInfo.credentialBackedUp,
      };
    } catch {
      // Wrong origin or RP id, bad signature, counter behind the stored one, malformed data.
      return null;
    }
  }
}
