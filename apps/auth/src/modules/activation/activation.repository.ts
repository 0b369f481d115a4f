import { Injectable } from '@nestjs/common';
import { returningRows, TxHost } from '@wp/persistence';
import { ActivationCode } from './activation-code.entity.js';

/** Pending activation codes. Callers hold the account's row lock (see ActivationService). */
@Injectable()
export class ActivationRepository {
  constructor(private readonly txHost: TxHost) {}

  /** Stores the account's code, replacing (and so invalidating) any previous one. */
  async replace(code: Omit<ActivationCode, 'user'>): Promise<void> {
    await this.txHost.tx
      .createQueryBuilder()
      .insert()
      .into(ActivationCode)
      .values(code)
      .orUpdate(
        ['channel', 'code_hmac', 'failed_attempts', 'expires_at', 'created_at'],
        ['user_id'],
      )
      .execute();
  }

  find(userId: string): Promise<ActivationCode | null> {
    return this.txHost.tx.findOneBy(ActivationCode, { userId });
  }

  /** Counts one wrong code; returns the failures so far. */
  async recordFailure(userId: string): Promise<number> {
    const rows = await returningRows<{ failed_attempts: number }>(
      this.txHost.tx.query(
        `UPDATE activation_code SET failed_attempts = failed_attempts + 1
          WHERE user_id = $1 RETURNING failed_attempts`,
        [userId],
      ),
    );
    return rows[0]?.failed_attempts ?? 0;
  }

  async delete(userId: string): Promise<void> {
    await this.txHost.tx.delete(ActivationCode, { userId });
  }
}
