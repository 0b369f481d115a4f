import { Injectable } from '@nestjs/common';
import { returningRows } from '@wp/persistence';
import type { EntityManager } from 'typeorm';
import { ActivationCode } from './activation-code.entity.js';

/** Pending activation codes. Callers hold the account's row lock (see ActivationService). */
@Injectable()
export class ActivationRepository {
  /** Stores the account's code, replacing (and so invalidating) any previous one. */
  async replace(code: Omit<ActivationCode, 'user'>, manager: EntityManager): Promise<void> {
    await manager
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

  find(userId: string, manager: EntityManager): Promise<ActivationCode | null> {
    return manager.findOneBy(ActivationCode, { userId });
  }

  /** Counts one wrong code; returns the failures so far. */
  async recordFailure(userId: string, manager: EntityManager): Promise<number> {
    const rows = await returningRows<{ failed_attempts: number }>(
      manager.query(
        `UPDATE activation_code SET failed_attempts = failed_attempts + 1
          WHERE user_id = $1 RETURNING failed_attempts`,
        [userId],
      ),
    );
    return rows[0]?.failed_attempts ?? 0;
  }

  async delete(userId: string, manager: EntityManager): Promise<void> {
    await manager.delete(ActivationCode, { userId });
  }
}
