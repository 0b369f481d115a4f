import { Injectable } from '@nestjs/common';
import type { RequestMeta } from '@wp/http';
import type { Principal } from '@wp/security';
import { AuthAudit } from '../audit/auth-audit.js';
import { newRecoveryCodes } from './recovery-codes.js';
import { TwoFactorAccount } from './two-factor-account.js';
import { TwoFactorEnrolmentService } from './two-factor-enrolment.service.js';
import { TwoFactorState } from './two-factor-state.js';
import { TwoFactorRepository } from './two-factor.repository.js';
import {
  toRecoveryCodesResource,
  toStatusResource,
  type RecoveryCodesResource,
  type TwoFactorStatusResource,
} from './two-factor.serializer.js';

/**
 * Changes to two-factor once it is on, each proven by a current code or a recovery code
 * (docs/auth.md § Two-factor authentication): turning it off, and a new set of recovery codes.
 */
@Injectable()
export class TwoFactorManagementService {
  constructor(
    private readonly repository: TwoFactorRepository,
    private readonly account: TwoFactorAccount,
    private readonly enrolment: TwoFactorEnrolmentService,
    private readonly state: TwoFactorState,
    private readonly audit: AuthAudit,
  ) {}

  /**
   * `POST /users/me/two_factor/disable`: removes the authenticator and the recovery codes.
   * @throws TwoFactorNotEnabledError 409; 400 (proof); InvalidTwoFactorCodeError 422; 429
   */
  async disable(
    principal: Principal,
    body: { code?: string; recovery_code?: string },
    meta: RequestMeta,
  ): Promise<TwoFactorStatusResource> {
    const user = await this.account.activeUser(principal);
    await this.account.withSecondFactor(user, body, async (method) => {
      await this.repository.deleteAll(user.id);
      await this.state.set(user.id, false);
      await this.audit.record({
        action: 'user.two_factor_disabled',
        user,
        meta,
        details: { method },
      });
    });
    return toStatusResource(user.id, {
      enabled: false,
      enabledAt: null,
      enrolmentPending: false,
      recoveryCodesRemaining: 0,
    });
  }

  /**
   * `POST /users/me/two_factor/recovery_codes`: ten new codes; the previous ones stop working.
   * @throws TwoFactorNotEnabledError 409; 400 (proof); InvalidTwoFactorCodeError 422; 429
   */
  async regenerateRecoveryCodes(
    principal: Principal,
    body: { code?: string; recovery_code?: string },
    meta: RequestMeta,
  ): Promise<RecoveryCodesResource> {
    const user = await this.account.activeUser(principal);
    const codes = newRecoveryCodes();
    await this.account.withSecondFactor(user, body, async (method) => {
      await this.enrolment.storeRecoveryCodes(user, codes);
      await this.audit.record({
        action: 'user.recovery_codes_regenerated',
        user,
        meta,
        details: { method },
      });
    });
    return toRecoveryCodesResource(user.id, codes);
  }
}
