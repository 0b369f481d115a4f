import { Injectable } from '@nestjs/common';
import type { UserSnapshot, UserTwoFactorChanged } from '@wp/contracts';
import { DataSource, In, type EntityManager } from 'typeorm';
import { DirectoryUser } from './directory-user.entity.js';

@Injectable()
export class DirectoryRepository {
  constructor(private readonly dataSource: DataSource) {}

  async upsert(user: UserSnapshot, manager: EntityManager): Promise<void> {
    await manager.upsert(
      DirectoryUser,
      {
        id: user.userId,
        email: user.email,
        phone: user.phone,
        firstName: user.firstName,
        lastName: user.lastName,
        status: user.status,
      },
      ['id'],
    );
  }

  /**
   * Applies `auth.user.two_factor_changed` if it is newer than what is stored (versions grow per
   * account), so a redelivered or reordered event never brings back an older state. An account
   * the directory does not know yet gets a row (an active account: only those change two-factor)
   * that its `auth.user.*` snapshot completes.
   */
  async applyTwoFactor(change: UserTwoFactorChanged, manager: EntityManager): Promise<void> {
    await manager.query(
      `INSERT INTO directory_user (id, status, two_factor_enabled, two_factor_version)
       VALUES ($1, 'active', $2, $3)
       ON CONFLICT (id) DO UPDATE
          SET two_factor_enabled = EXCLUDED.two_factor_enabled,
              two_factor_version = EXCLUDED.two_factor_version, updated_at = now()
        WHERE directory_user.two_factor_version < EXCLUDED.two_factor_version`,
      [change.userId, change.enabled, change.version],
    );
  }

  /**
   * Seeds the directory with a snapshot auth just gave us (add_user), so the new member shows
   * with name and email before the `auth.user.*` events arrive. Never overwrites: the events
   * stay the source of updates.
   */
  async insertIfAbsent(user: UserSnapshot, manager: EntityManager): Promise<void> {
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
    const user = await this.dataSource.getRepository(DirectoryUser).findOneBy({ id });
    return user?.email ?? null;
  }

  findByIds(ids: string[]): Promise<DirectoryUser[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.dataSource.getRepository(DirectoryUser).findBy({ id: In(ids) });
  }
}
