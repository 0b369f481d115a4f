import { Injectable } from '@nestjs/common';
import { UserDirectory } from '@wp/user-directory';
import { DataSource } from 'typeorm';

/** How to reach a user: what `notify.requested` needs. */
export interface Contact {
  userId: string;
  email: string | null;
  phone: string | null;
}

/**
 * Wallet's user directory: `auth.user.*` snapshots stored by @wp/user-directory (`apply`, key
 * `user_id`), read for the contacts transfer-request codes are sent to.
 */
@Injectable()
export class DirectoryRepository extends UserDirectory {
  constructor(private readonly dataSource: DataSource) {
    super({ idColumn: 'user_id', stampsUpdatedAt: false });
  }

  /** Where to send codes to the given users: those the directory knows and not disabled. */
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
