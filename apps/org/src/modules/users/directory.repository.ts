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

  findByIds(ids: string[]): Promise<DirectoryUser[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.dataSource.getRepository(DirectoryUser).findBy({ id: In(ids) });
  }
}
