import { Injectable } from '@nestjs/common';
import { DataSource, In, type EntityManager } from 'typeorm';
import { User } from './user.entity.js';

@Injectable()
export class UsersRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(User);
  }

  findById(id: string, manager?: EntityManager): Promise<User | null> {
    return this.repo(manager).findOneBy({ id });
  }

  findByIds(ids: string[]): Promise<User[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.repo().findBy({ id: In(ids) });
  }

  /** @param email already normalized (lower case) */
  findByEmail(email: string, manager?: EntityManager): Promise<User | null> {
    return this.repo(manager).findOneBy({ email });
  }

  /** @param phone E.164 */
  findByPhone(phone: string, manager?: EntityManager): Promise<User | null> {
    return this.repo(manager).findOneBy({ phone });
  }

  /** Inserts; returns false when the email or phone is already taken (unique violation). */
  async insert(user: User, manager: EntityManager): Promise<boolean> {
    const result = await this.repo(manager)
      .createQueryBuilder()
      .insert()
      .values(user)
      .orIgnore()
      .returning(['id'])
      .execute();
    return (result.raw as unknown[]).length > 0;
  }
}
