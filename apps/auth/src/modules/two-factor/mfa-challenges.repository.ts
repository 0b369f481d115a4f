import { Injectable } from '@nestjs/common';
import { returningRows, TxHost } from '@wp/persistence';
import { DataSource } from 'typeorm';
import type { User } from '../accounts/user.entity.js';

/** A live challenge with its account, as the second login step needs them. */
export interface LiveChallenge {
  id: string;
  appId: string;
  user: Pick<
    User,
    'id' | 'email' | 'phone' | 'firstName' | 'lastName' | 'status' | 'twoFactorEnabled'
  >;
}

/** Login challenges of the second step (docs/auth.md § Two-factor login). */
@Injectable()
export class MfaChallengesRepository {
  constructor(
    private readonly txHost: TxHost,
    private readonly dataSource: DataSource,
  ) {}

  async insert(challenge: {
    id: string;
    tokenHash: string;
    userId: string;
    appId: string;
    expiresAt: Date;
  }): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO mfa_challenge (id, token_hash, user_id, app_id, expires_at)
       VALUES ($1, $2, $3, $4, $5)`,
      [challenge.id, challenge.tokenHash, challenge.userId, challenge.appId, challenge.expiresAt],
    );
  }

  /** The unexpired, unconsumed challenge with this token hash, with its account. */
  async findLive(tokenHash: string): Promise<LiveChallenge | null> {
    const rows = await this.dataSource.query<
      {
        id: string;
        app_id: string;
        user_id: string;
        email: string | null;
        phone: string | null;
        first_name: string;
        last_name: string;
        status: User['status'];
        two_factor_enabled: boolean;
      }[]
    >(
      `SELECT c.id, c.app_id, u.id AS user_id, u.email, u.phone, u.first_name, u.last_name,
              u.status, u.two_factor_enabled
         FROM mfa_challenge c JOIN app_user u ON u.id = c.user_id
        WHERE c.token_hash = $1 AND c.consumed_at IS NULL AND c.expires_at > now()`,
      [tokenHash],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id: row.id,
      appId: row.app_id,
      user: {
        id: row.user_id,
        email: row.email,
        phone: row.phone,
        firstName: row.first_name,
        lastName: row.last_name,
        status: row.status,
        twoFactorEnabled: row.two_factor_enabled,
      },
    };
  }

  /**
   * Locks the challenge for the rest of the transaction if it is still live: concurrent
   * attempts with one challenge run one after the other. @returns false when it is not
   */
  async lockLive(id: string): Promise<boolean> {
    const rows = await this.txHost.tx.query<{ id: string }[]>(
      `SELECT id FROM mfa_challenge
        WHERE id = $1 AND consumed_at IS NULL AND expires_at > now() FOR UPDATE`,
      [id],
    );
    return rows.length > 0;
  }

  async consume(id: string): Promise<void> {
    await this.txHost.tx.query(`UPDATE mfa_challenge SET consumed_at = now() WHERE id = $1`, [id]);
  }

  /**
   * Counts a wrong code; the challenge is used up at `maxAttempts`.
   * @returns the attempts left (0: used up)
   */
  async fail(id: string, maxAttempts: number): Promise<number> {
    const rows = await returningRows<{ failed_attempts: number }>(
      this.txHost.tx.query(
        `UPDATE mfa_challenge
            SET failed_attempts = failed_attempts + 1,
                consumed_at = CASE WHEN failed_attempts + 1 >= $2 THEN now() END
          WHERE id = $1 RETURNING failed_attempts`,
        [id, maxAttempts],
      ),
    );
    return Math.max(0, maxAttempts - (rows[0]?.failed_attempts ?? maxAttempts));
  }

  /** Housekeeping: deletes challenges that ended more than an hour ago. */
  async purge(): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM mfa_challenge WHERE expires_at < now() - interval '1 hour'`,
    );
  }
}
