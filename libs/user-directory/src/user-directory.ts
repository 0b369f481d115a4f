import type { UserSnapshot } from '@wp/contracts';
import { upsertIfNewer } from '@wp/persistence';
import type { EntityManager } from 'typeorm';

/** The read model's table in every service that keeps one. */
export const DIRECTORY_TABLE = 'directory_user';

/** How one service's `directory_user` table differs from another's (each owns its migrations). */
export interface DirectoryTableLayout {
  /** The primary key column holding auth's user id (org: `id`, wallet: `user_id`). */
  readonly idColumn: 'id' | 'user_id';
  /** Whether the table has an `updated_at` column that every applied snapshot stamps. */
  readonly stampsUpdatedAt: boolean;
}

/**
 * A service's user directory: the read model of auth's accounts fed by `auth.user.registered`,
 * `.activated` and `.updated` (docs/architecture.md § Data ownership and events). The shared part
 * is how a snapshot is stored; a service's repository extends this class with its own reads (and
 * events of its own, such as org's two-factor state) and is provided under this class as well,
 * which is what {@link UserDirectoryHandlers} injects (`userDirectoryProviders`).
 */
export abstract class UserDirectory {
  protected constructor(private readonly layout: DirectoryTableLayout) {}

  /**
   * Stores a snapshot unless a later one (by event time, `occurred_at`) is already stored, so a
   * redelivered or reordered event never brings back an older name or email (`upsertIfNewer`,
   * docs/architecture.md § Consistency). Columns outside the snapshot are not touched.
   * @param occurredAt the event's `occurredAt` (ISO 8601)
   */
  async apply(user: UserSnapshot, occurredAt: string, manager: EntityManager): Promise<void> {
    await upsertIfNewer(manager, {
      table: DIRECTORY_TABLE,
      key: [this.layout.idColumn],
      order: 'occurred_at',
      values: {
        [this.layout.idColumn]: user.userId,
        email: user.email,
        phone: user.phone,
        first_name: user.firstName,
        last_name: user.lastName,
        status: user.status,
        occurred_at: occurredAt,
        ...(this.layout.stampsUpdatedAt ? { updated_at: new Date() } : {}),
      },
    });
  }
}
