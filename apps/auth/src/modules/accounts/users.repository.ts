import { Injectable } from '@nestjs/common';
import { TxHost } from '@wp/persistence';
import { DataSource, In } from 'typeorm';
import { User } from './user.entity.js';

/** What login needs of an account. */
export type LoginAccount = Pick<
  User,
  | 'id'
  | 'email'
  | 'phone'
  | 'passwordHash'
  | 'status'
  | 'firstName'
  | 'lastName'
  | 'twoFactorEnabled'
>;

/** The columns of a {@link LoginAccount} from `app_user`, named as its fields. */
export const LOGIN_COLUMNS = `id, email, phone, password_hash AS "passwordHash", status,
                       first_name AS "firstName", last_name AS "lastName",
                       two_factor_enabled AS "twoFactorEnabled"`;
/** Accounts (`app_user`). */
@Injectable()
export class UsersRepository {
  constructor(
    private readonly txHost: TxHost,
    private readonly dataSource: DataSource,
  ) {}

  private repo() {
    return this.txHost.tx.getRepository(User);
  }

  findById(id: string): Promise<User | null> {
    return this.repo().findOneBy({ id });
  }

  /**
   * Reads an account and locks its row until the transaction ends: activation, resend, reset
   * and change of one account run one at a time.
   */
  findByIdForUpdate(id: string): Promise<User | null> {
    return this.repo().findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  findByIds(ids: string[]): Promise<User[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.repo().findBy({ id: In(ids) });
  }

  /**
   * The account of a username, by its identity key (`usernameLookupKey` of `@wp/identity`:
   * every spelling of one email or phone number gives the same key; docs/auth.md § Usernames).
   */
  findByUsernameKey(key: string): Promise<User | null> {
    return this.repo().findOneBy({ usernameKey: key });
  }

  /** Inserts; returns false when the username key is already taken (unique violation). */
  async insert(user: User): Promise<boolean> {
    const result = await this.repo()
      .createQueryBuilder()
      .insert()
      .values(user)
      .orIgnore()
      .returning(['id'])
      .execute();
    return (result.raw as unknown[]).length > 0;
  }

  /** Marks a pending account active; returns the updated account. */
  async activate(user: User): Promise<User> {
    const now = new Date();
    await this.repo().update(
      { id: user.id },
      { status: 'active', activatedAt: now, updatedAt: now },
    );
    return { ...user, status: 'active', activatedAt: now, updatedAt: now };
  }

  async updatePasswordHash(userId: string, passwordHash: string): Promise<void> {
    await this.repo().update({ id: userId }, { passwordHash, updatedAt: new Date() });
  }
}
