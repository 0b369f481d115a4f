import { Inject, Injectable } from '@nestjs/common';
import { returningRows, TxHost } from '@wp/persistence';
import { AUTH_CONFIG, type AuthConfig } from '../../config/auth.config.js';

export type Ceremony = 'registration' | 'authentication';

/**
 * WebAuthn challenges in PostgreSQL (docs/decisions.md § Passkeys): issued by the options
 * routes, redeemed once by the verify routes. Redemption is one `DELETE … RETURNING` matching
 * the challenge, ceremony, application, account (registration) and lifetime, so two requests
 * presenting one challenge cannot both succeed and a replayed response finds nothing.
 */
@Injectable()
export class WebauthnChallenges {
  constructor(
    private readonly txHost: TxHost,
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
  ) {}

  /** Stores a challenge (base64url) and, in the same statement, sweeps expired ones. */
  async issue(
    challenge: string,
    ceremony: Ceremony,
    appId: string,
    userId: string | null,
  ): Promise<void> {
    await this.txHost.tx.query(
      `WITH swept AS (DELETE FROM webauthn_challenge WHERE expires_at < now())
       INSERT INTO webauthn_challenge (challenge, ceremony, user_id, app_id, expires_at)
       VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))`,
      [challenge, ceremony, userId, appId, this.config.WEBAUTHN_CHALLENGE_TTL_SECONDS],
    );
  }

  /**
   * Redeems a live challenge of this ceremony, application and (for registration) account, in
   * the active transaction or, outside one, alone (then it is spent even if the caller fails).
   * @returns whether one was found (and is now gone)
   */
  async redeem(
    challenge: string,
    ceremony: Ceremony,
    appId: string,
    userId: string | null,
  ): Promise<boolean> {
    const rows = await returningRows<unknown>(
      this.txHost.tx.query(
        `DELETE FROM webauthn_challenge
        WHERE challenge = $1 AND ceremony = $2 AND app_id = $3
          AND user_id IS NOT DISTINCT FROM $4 AND expires_at > now()
       RETURNING 1`,
        [challenge, ceremony, appId, userId],
      ),
    );
    return rows.length > 0;
  }
}
