import { Injectable } from '@nestjs/common';
import type { UserSnapshot } from '@wp/contracts';
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

  /** Stores a snapshot unless a later one (by event time) is already stored. */
  async apply(user: UserSnapshot, occurredAt: string, manager: EntityManager): Promise<void> {
    await manager.query(
      `INSERT INTO directory_user (user_id, email, phone, first_name, last_name, status, occurred_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (user_id) DO UPDATE
         SET email = EXCLUDED.email, phone = EXCLUDED.phone, first_name = EXCLUDED.first_name,
             last_name = EXCLUDED.last_name, status = EXCLUDED.status,
             occurred_at = EXCLUDED.occurred_at
         WHERE directory_user.occurred_at <= EXCLUDED.occurred_at`,
      [user.userId, user.email, user.phone, user.firstName, user.lastName, user.status, occurredAt],
    );
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
