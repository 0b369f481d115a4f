import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { generateRegistrationOptions, verifyRegistrationResponse } from '@simplewebauthn/server';
import { NotFoundError, type RequestMeta } from '@wp/http';
import type { Principal } from '@wp/security';
import { TxHost } from '@wp/persistence';
import { AUTH_CONFIG, type AuthConfig } from '../../config/auth.config.js';
import { UsersRepository } from '../accounts/users.repository.js';
import { AuthAudit } from '../audit/auth-audit.js';
import { RateLimits } from '../rate-limits/rate-limits.service.js';
import type { RegisterPasskeyDto } from './dto/passkeys.dto.js';
import { activeAccount, registrationChallenge, userHandleOf } from './passkey-account.js';
import {
  PasskeyAlreadyRegisteredError,
  PasskeyChallengeInvalidError,
  PasskeyRegistrationFailedError,
} from './passkeys.errors.js';
import { PasskeysRepository } from './passkeys.repository.js';
import {
  toOptionsResource,
  toPasskeyData,
  type PasskeyResource,
  type WebauthnOptionsResource,
} from './passkeys.serializer.js';
import { RelyingParties } from './relying-party.js';
import { WebauthnChallenges } from './webauthn-challenges.repository.js';

/**
 * Registering a passkey on the signed-in account (docs/auth.md § Passkeys, "Registration"):
 * options with a single-use challenge bound to the account and the client application, then
 * the verification of `navigator.credentials.create()`'s answer by `@simplewebauthn/server`
 * against the application's relying party, user verification required.
 */
@Injectable()
export class PasskeyRegistrationService {
  constructor(
    private readonly txHost: TxHost,
    private readonly users: UsersRepository,
    private readonly passkeys: PasskeysRepository,
    private readonly challenges: WebauthnChallenges,
    private readonly relyingParties: RelyingParties,
    private readonly audit: AuthAudit,
    private readonly limits: RateLimits,
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
  ) {}

  /**
   * `POST /users/me/passkeys/options`: creation options (discoverable credential, user
   * verification required, no attestation; the account's passkeys of this relying party are
   * excluded). 403 `USER_TOKEN_REQUIRED`; 401 `ACCOUNT_INACTIVE`; 429 `RATE_LIMITED` with
   * `Retry-After` beyond `PASSKEY_OPTIONS_RATE_LIMIT` per `PASSKEY_OPTIONS_RATE_WINDOW_SECONDS`
   * for the account (each call stores a challenge).
   */
  async options(principal: Principal, appId: string): Promise<WebauthnOptionsResource> {
    const user = await activeAccount(principal, this.users);
    await this.limits.consume('passkey_options', `registration:${user.id}`);
    const rp = await this.relyingParties.of(appId);
    const existing = (await this.passkeys.listOf(user.id)).filter((p) => p.rpId === rp.id);
    const ttl = this.config.WEBAUTHN_CHALLENGE_TTL_SECONDS;
    const userName = user.email ?? user.phone ?? user.id;
    const options = await generateRegistrationOptions({
      rpName: rp.name,
      rpID: rp.id,
      userID: userHandleOf(user.id),
      userName,
      userDisplayName: [user.firstName, user.lastName].filter(Boolean).join(' ') || userName,
      timeout: ttl * 1000,
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    await this.challenges.issue(options.challenge, 'registration', appId, user.id);
    return toOptionsResource('passkey_registration_options', options, ttl);
  }

  /**
   * `POST /users/me/passkeys`: verifies and stores the new credential. The challenge is spent
   * first (alone), so a failed verification cannot be retried with it.
   * @throws PasskeyChallengeInvalidError 422; PasskeyRegistrationFailedError 422;
   *   PasskeyAlreadyRegisteredError 409
   */
  async register(
    principal: Principal,
    appId: string,
    dto: RegisterPasskeyDto,
    meta: RequestMeta,
  ): Promise<PasskeyResource> {
    const user = await activeAccount(principal, this.users);
    const challenge = registrationChallenge(dto.credential.response.clientDataJSON);
    const spent = await this.challenges.redeem(challenge, 'registration', appId, user.id);
    if (!spent) throw new PasskeyChallengeInvalidError(false);
    const rp = await this.relyingParties.of(appId);
    const info = await this.verify(dto, challenge, rp);
    const id = randomUUID();
    const name = dto.name?.trim() || 'Passkey';
    await this.txHost.withTransaction(async () => {
      const stored = await this.passkeys.insert({
        id,
        userId: user.id,
        credentialId: info.credential.id,
        publicKey: Buffer.from(info.credential.publicKey),
        signCount: String(info.credential.counter),
        transports: info.credential.transports ?? [],
        deviceType: info.credentialDeviceType,
        backedUp: info.credentialBackedUp,
        name,
        rpId: rp.id,
      });
      if (!stored) throw new PasskeyAlreadyRegisteredError();
      await this.audit.record({
        action: 'user.passkey_added',
        user,
        meta,
        target: { type: 'passkey', id, label: name },
        details: { rpId: rp.id, backedUp: info.credentialBackedUp },
      });
    });
    const row = await this.passkeys.findOf(user.id, id);
    if (!row) throw new NotFoundError('Passkey');
    return { data: toPasskeyData(row) };
  }

  private async verify(
    dto: RegisterPasskeyDto,
    challenge: string,
    rp: { id: string; origins: string[] },
  ) {
    try {
      const result = await verifyRegistrationResponse({
        response: {
          ...dto.credential,
          clientExtensionResults: dto.credential.clientExtensionResults ?? {},
        },
        expectedChallenge: challenge,
        expectedOrigin: rp.origins,
        expectedRPID: rp.id,
        requireUserVerification: true,
      });
      if (!result.verified)
        throw new PasskeyRegistrationFailedError('The response did not verify.');
      return result.registrationInfo;
    } catch (error) {
      if (error instanceof PasskeyRegistrationFailedError) throw error;
      throw new PasskeyRegistrationFailedError((error as Error).message.slice(0, 300));
    }
  }
}
