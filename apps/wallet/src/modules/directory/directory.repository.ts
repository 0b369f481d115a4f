import { Injectable } from '@nestjs/common';
import type { UserSnapshot } from '@wp/contracts';
import { upsertIfNewer } from '@wp/persistence';
import { DataSource, type EntityManager } from 'typeorm';

/** How to reach a user: what `notify.requested` needs. */
export interface Contact {
  userId: string;
  email: string | null;
  phone: string | null;
}

@Injectable()
export class DirectoryRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Stores a snapshot unless a later one (by event time) is already stored: the read-model rule
   * of `upsertIfNewer` (docs/architecture.md § Consistency).
   */
  async apply(user: UserSnapshot, occurredAt: string, manager: EntityManager): Promise<void> {
    await upsertIfNewer(manager, {
      table: 'directory_user',
      key: ['user_id'],
      order: 'occurred_at',
      values: {
        user_id: user.userId,
        email: user.email,
        phone: user.phone,
        first_name: user.firstName,
        last_name: user.lastName,
        status: user.status,
        occurred_at: occurredAt,
      },
    });
  }

  async contacts(userIds: string[]): Promise<Contact[]> {
    if (userIds.length === 0) return [];
    const rows: { user_id: string; email: string | null; phone: string | null }[] =
      await this.dataSource.query(
        `SELECT user_id, email, phone FROM directory_user
         WHERE user_id = ANY($1::uuid[]) AND status <> 'disabled'`,
        [userIds],
      );
    return rows.map((r) => ({ userId: r.user_id, email: r.email, phone: r.phone }));
  }
}
