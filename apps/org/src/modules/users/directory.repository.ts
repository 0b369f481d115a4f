import { Injectable } from '@nestjs/common';
import type { UserSnapshot } from '@wp/contracts';
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
