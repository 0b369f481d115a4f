import { Injectable } from '@nestjs/common';
import type { UserSnapshot, UserTwoFactorChanged } from '@wp/contracts';
import { activeTransaction, TxHost, upsertIfNewer } from '@wp/persistence';
import { UserDirectory } from '@wp/user-directory';
import { In } from 'typeorm';
import { DirectoryUser } from './directory-user.entity.js';

/**
 * Org's user directory: `auth.user.*` snapshots stored by @wp/user-directory (`apply`, key `id`,
 * `updated_at` stamped; the two-factor columns are not touched), plus org's own two-factor state,
 * the add_user seed and the reads beside memberships.
 */
@Injectable()
export class DirectoryRepository extends UserDirectory {
  constructor(private readonly txHost: TxHost) {
    super({ idColumn: 'id', stampsUpdatedAt: true });
  }

  /**
   * Applies `auth.user.two_factor_changed` if it is newer than what is stored (versions grow per
   * account), so a redelivered or reordered event never brings back an older state. An account
   * the directory does not know yet gets a row (an active account: only those change two-factor)
   * that its `auth.user.*` snapshot completes.
   */
  async applyTwoFactor(change: UserTwoFactorChanged): Promise<void> {
    const manager = activeTransaction(this.txHost);
    await upsertIfNewer(manager, {
      table: 'directory_user',
      key: ['id'],
      order: 'two_factor_version',
      ties: 'keep',
      insertOnly: ['status'],
      values: {
        id: change.userId,
        status: 'active',
        two_factor_enabled: change.enabled,
        two_factor_version: change.version,
        updated_at: new Date(),
      },
    });
  }

  /**
   * Seeds the directory with a snapshot auth just gave us (add_user), so the new member shows
   * with name and email before the `auth.user.*` events arrive. Never overwrites: the events
   * stay the source of updates.
   */
  async insertIfAbsent(user: UserSnapshot): Promise<void> {
    const manager = activeTransaction(this.txHost);
    await manager
      .createQueryBuilder()
      .insert()
      .into(DirectoryUser)
      .values({
        id: user.userId,
        email: user.email,
        phone: user.phone,
        firstName: user.firstName,
        lastName: user.lastName,
        status: user.status,
      })
      .orIgnore()
      .execute();
  }

  /** The email the directory holds for a user (null when unknown or phone-only). */
  async findEmail(id: string): Promise<string | null> {
    const user = await this.txHost.tx.getRepository(DirectoryUser).findOneBy({ id });
    return user?.email ?? null;
  }

  findByIds(ids: string[]): Promise<DirectoryUser[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.txHost.tx.getRepository(DirectoryUser).findBy({ id: In(ids) });
  }
}
