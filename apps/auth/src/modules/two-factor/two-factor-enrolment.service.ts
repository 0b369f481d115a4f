import { TxHost } from '@wp/persistence';
import { Inject, Injectable } from '@nestjs/common';
import type { RequestMeta } from '@wp/http';
import { AesGcmEnvelope, type Principal } from '@wp/security';
import { AUTH_CONFIG, type AuthConfig } from '../../config/auth.config.js';
import { AuthAudit } from '../audit/auth-audit.js';
import type { User } from '../accounts/user.entity.js';
import { hashRecoveryCode, newRecoveryCodes, normalizeRecoveryCode } from './recovery-codes.js';
import { matchingStep, newTotpSecret, otpauthUri, qrCode, TOTP_PARAMETERS } from './totp.js';
import { TwoFactorAccount } from './two-factor-account.js';
import { TwoFactorState } from './two-factor-state.js';
import {
  EnrolmentNotStartedError,
  InvalidTwoFactorCodeError,
  TwoFactorAlreadyEnabledError,
} from './two-factor.errors.js';
import { TwoFactorRepository } from './two-factor.repository.js';
import {
  toRecoveryCodesResource,
  toStatusResource,
  type RecoveryCodesResource,
  type TwoFactorEnrolmentResource,
  type TwoFactorStatusResource,
} from './two-factor.serializer.js';

/**
 * Turning two-factor on (docs/auth.md § Two-factor authentication): `start` (password
 * re-checked) makes a pending TOTP secret and shows it once with its `otpauth://` URI and QR
 * code; `confirm` with a first code turns two-factor on and answers ten recovery codes, once.
 * Also the state read.
 */
@Injectable()
export class TwoFactorEnrolmentService {
  constructor(
    private readonly txHost: TxHost,
    private readonly repository: TwoFactorRepository,
    private readonly account: TwoFactorAccount,
    private readonly state: TwoFactorState,
    private readonly box: AesGcmEnvelope,
    private readonly audit: AuthAudit,
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
  ) {}

  /** `GET /users/me/two_factor`. */
  async status(principal: Principal): Promise<TwoFactorStatusResource> {
    const user = await this.account.activeUser(principal);
    const credential = await this.repository.findCredential(user.id);
    return toStatusResource(user.id, {
      enabled: user.twoFactorEnabled,
      enabledAt: user.twoFactorEnabled ? (credential?.confirmedAt?.toISOString() ?? null) : null,
      enrolmentPending: credential !== null && credential.confirmedAt === null,
      recoveryCodesRemaining: user.twoFactorEnabled
        ? await this.repository.countUnusedRecoveryCodes(user.id)
        : 0,
    });
  }

  /**
   * `POST /users/me/two_factor`: a new pending secret (replacing a pending one), sealed at rest.
   * @throws CurrentPasswordInvalidError 422; TwoFactorAlreadyEnabledError 409; 429
   */
  async start(principal: Principal, password: string): Promise<TwoFactorEnrolmentResource> {
    const user = await this.account.activeUser(principal);
    if (user.twoFactorEnabled) throw new TwoFactorAlreadyEnabledError();
    await this.account.checkPassword(user, password);
    const secret = newTotpSecret();
    const saved = await this.txHost.withTransaction(() =>
      this.repository.savePending(user.id, this.box.encrypt(secret)),
    );
    if (!saved) throw new TwoFactorAlreadyEnabledError();
    const uri = otpauthUri(secret, this.config.TOTP_ISSUER, user.email ?? user.phone ?? user.id);
    const qr = qrCode(uri);
    return {
      data: {
        type: 'two_factor_enrolment',
        id: user.id,
        attributes: {
          secret,
          otpauthUri: uri,
          qrCodeSvg: qr.svg,
          qrCodeDataUrl: qr.dataUrl,
          ...TOTP_PARAMETERS,
        },
      },
    };
  }

  /**
   * `POST /users/me/two_factor/confirm`: the first code of the pending secret turns two-factor
   * on (its step is spent), with a new set of recovery codes; `auth.user.two_factor_changed`
   * and the audit entry in the same transaction.
   * @throws EnrolmentNotStartedError 409; InvalidTwoFactorCodeError 422;
   *   TwoFactorAlreadyEnabledError 409
   */
  async confirm(
    principal: Principal,
    code: string,
    meta: RequestMeta,
  ): Promise<RecoveryCodesResource> {
    const user = await this.account.activeUser(principal);
    if (user.twoFactorEnabled) throw new TwoFactorAlreadyEnabledError();
    const codes = newRecoveryCodes();
    const outcome = await this.txHost.withTransaction(async () => {
      const credential = await this.repository.findCredential(user.id);
      if (!credential) throw new EnrolmentNotStartedError();
      if (credential.confirmedAt) throw new TwoFactorAlreadyEnabledError();
      const step = matchingStep(this.box.decrypt(credential.sealedSecret), code);
      if (step === null) return 'wrong_code';
      if (!(await this.repository.confirm(user.id, step))) {
        throw new EnrolmentNotStartedError();
      }
      await this.storeRecoveryCodes(user, codes);
      await this.state.set(user.id, true);
      await this.audit.record({ action: 'user.two_factor_enabled', user, meta });
      return 'enabled';
    });
    if (outcome === 'wrong_code') throw new InvalidTwoFactorCodeError(false);
    return toRecoveryCodesResource(user.id, codes);
  }

  /** Replaces the account's recovery codes by `codes` (stored as HMACs). */
  async storeRecoveryCodes(user: Pick<User, 'id'>, codes: string[]): Promise<void> {
    const hashes = codes.map((code) =>
      hashRecoveryCode(this.config.AUTH_CODE_SECRET, user.id, normalizeRecoveryCode(code)!),
    );
    await this.repository.replaceRecoveryCodes(user.id, hashes);
  }
}
