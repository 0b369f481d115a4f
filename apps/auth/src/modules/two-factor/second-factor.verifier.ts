import { Inject, Injectable } from '@nestjs/common';
import { AesGcmEnvelope } from '@wp/security';
import { AUTH_CONFIG, type AuthConfig } from '../../config/auth.config.js';
import { hashRecoveryCode, normalizeRecoveryCode } from './recovery-codes.js';
import { matchingStep } from './totp.js';
import { proofRequired } from './two-factor.errors.js';
import { TwoFactorRepository } from './two-factor.repository.js';

/** A second factor as sent: a TOTP code or a recovery code (exactly one). */
export type SecondFactorProof =
  { method: 'totp'; code: string } | { method: 'recovery_code'; code: string };

/** How a proof was accepted (audit `details.method`). */
export type SecondFactorMethod = SecondFactorProof['method'];

/**
 * The body fields `code` / `recovery_code` as one proof.
 * @throws ValidationFailedError 400 unless exactly one is given
 */
export function proofOf(body: { code?: string; recovery_code?: string }): SecondFactorProof {
  if ((body.code === undefined) === (body.recovery_code === undefined)) throw proofRequired();
  return body.code !== undefined
    ? { method: 'totp', code: body.code }
    : { method: 'recovery_code', code: body.recovery_code! };
}

/**
 * Checks a second factor of an account with two-factor on, inside the caller's transaction
 * (docs/auth.md § Two-factor authentication):
 *
 * - a TOTP code (RFC 6238, ±1 step) is accepted at most once: its step must be later than every
 *   step accepted before, moved forward by one conditional UPDATE (`acceptStep`), so a replay is
 *   refused on every replica;
 * - a recovery code (HMAC-stored) is spent by one conditional UPDATE: it works once.
 */
@Injectable()
export class SecondFactorVerifier {
  constructor(
    private readonly repository: TwoFactorRepository,
    private readonly box: AesGcmEnvelope,
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
  ) {}

  /** @returns the method that was accepted, or null (wrong, replayed, or two-factor off) */
  async verify(userId: string, proof: SecondFactorProof): Promise<SecondFactorMethod | null> {
    if (proof.method === 'recovery_code') {
      const code = normalizeRecoveryCode(proof.code);
      if (code === null) return null;
      const hash = hashRecoveryCode(this.config.AUTH_CODE_SECRET, userId, code);
      return (await this.repository.useRecoveryCode(userId, hash)) ? 'recovery_code' : null;
    }
    const credential = await this.repository.findCredential(userId);
    if (!credential?.confirmedAt) return null;
    const step = matchingStep(this.box.decrypt(credential.sealedSecret), proof.code);
    if (step === null) return null;
    return (await this.repository.acceptStep(userId, step)) ? 'totp' : null;
  }
}
