import { Injectable } from '@nestjs/common';
import { Outbox } from '@wp/messaging';
import { TwoFactorRepository } from './two-factor.repository.js';

/**
 * The account-level "two-factor on" flag and its announcement: sets `app_user`'s flag with a
 * new version and enqueues `auth.user.two_factor_changed` in the same transaction (org keeps it
 * in its user directory for the organization policy, docs/org.md § Two-factor policy).
 */
@Injectable()
export class TwoFactorState {
  constructor(
    private readonly repository: TwoFactorRepository,
    private readonly outbox: Outbox,
  ) {}

  async set(userId: string, enabled: boolean): Promise<void> {
    const version = await this.repository.setEnabled(userId, enabled);
    await this.outbox.enqueue('auth.user.two_factor_changed', {
      userId,
      enabled,
      version,
    });
  }
}
