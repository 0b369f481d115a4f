import { Injectable } from '@nestjs/common';
import { returningRows, TxHost } from '@wp/persistence';
import { DataSource } from 'typeorm';

/** A user's authenticator as stored. */
export interface TotpCredentialRow {
  userId: string;
  sealedSecret: string;
  confirmedAt: Date | null;
}

/**
 * TOTP authenticators, recovery codes and the account's two-factor flag: the only file of the
 * two-factor feature (besides challenges) that touches the database.
 */
@Injectable()
export class TwoFactorRepository {
  constructor(
    private readonly txHost: TxHost,
    private readonly dataSource: DataSource,
  ) {}

  async findCredential(userId: string): Promise<TotpCredentialRow | null> {
    const rows = await this.txHost.tx.query<
      { user_id: string; sealed_secret: string; confirmed_at: Date | null }[]
    >(`SELECT user_id, sealed_secret, confirmed_at FROM totp_credential WHERE user_id = $1`, [
      userId,
    ]);
    const row = rows[0];
    return row
      ? { userId: row.user_id, sealedSecret: row.sealed_secret, confirmedAt: row.confirmed_at }
      : null;
  }

  /**
   * Stores a new pending secret (replacing a pending one).
   * @returns false when a confirmed authenticator exists (nothing changed)
   */
  async savePending(userId: string, sealedSecret: string): Promise<boolean> {
    const rows = await returningRows<{ user_id: string }>(
      this.txHost.tx.query(
        `INSERT INTO totp_credential (user_id, sealed_secret) VALUES ($1, $2)
         ON CONFLICT (user_id) DO UPDATE
            SET sealed_secret = EXCLUDED.sealed_secret, created_at = now(), last_used_step = NULL
          WHERE totp_credential.confirmed_at IS NULL
         RETURNING user_id`,
        [userId, sealedSecret],
      ),
    );
    return rows.length > 0;
  }

  /**
   * Confirms the pending authenticator with the step of its first code (that code cannot be
   * used again). @returns false when there is no pending authenticator any more
   */
  async confirm(userId: string, step: number): Promise<boolean> {
    const rows = await returningRows<{ user_id: string }>(
      this.txHost.tx.query(
        `UPDATE totp_credential SET confirmed_at = now(), last_used_step = $2
          WHERE user_id = $1 AND confirmed_at IS NULL RETURNING user_id`,
        [userId, step],
      ),
    );
    return rows.length > 0;
  }

  /**
   * Accepts a code of `step` once: moves `last_used_step` forward only if `step` is later than
   * every step accepted before (one conditional UPDATE: two replicas given the same code race
   * for the same row, and exactly one wins). @returns false for a replay
   */
  async acceptStep(userId: string, step: number): Promise<boolean> {
    const rows = await returningRows<{ user_id: string }>(
      this.txHost.tx.query(
        `UPDATE totp_credential SET last_used_step = $2
          WHERE user_id = $1 AND confirmed_at IS NOT NULL
            AND (last_used_step IS NULL OR last_used_step < $2)
          RETURNING user_id`,
        [userId, step],
      ),
    );
    return rows.length > 0;
  }

  /** Removes the authenticator and every recovery code of the account. */
  async deleteAll(userId: string): Promise<void> {
    await this.txHost.tx.query(`DELETE FROM totp_credential WHERE user_id = $1`, [userId]);
    await this.txHost.tx.query(`DELETE FROM recovery_code WHERE user_id = $1`, [userId]);
  }

  /** Replaces the account's recovery codes by a new set (hashes only). */
  async replaceRecoveryCodes(userId: string, codeHashes: string[]): Promise<void> {
    await this.txHost.tx.query(`DELETE FROM recovery_code WHERE user_id = $1`, [userId]);
    await this.txHost.tx.query(
      `INSERT INTO recovery_code (user_id, code_hash) SELECT $1, unnest($2::text[])`,
      [userId, codeHashes],
    );
  }

  /** Spends an unused recovery code. @returns false when no such unused code exists */
  async useRecoveryCode(userId: string, codeHash: string): Promise<boolean> {
    const rows = await returningRows<{ user_id: string }>(
      this.txHost.tx.query(
        `UPDATE recovery_code SET used_at = now()
          WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING user_id`,
        [userId, codeHash],
      ),
    );
    return rows.length > 0;
  }

  async countUnusedRecoveryCodes(userId: string): Promise<number> {
    const [row] = await this.dataSource.query<{ n: string }[]>(
      `SELECT count(*) AS n FROM recovery_code WHERE user_id = $1 AND used_at IS NULL`,
      [userId],
    );
    return Number(row?.n ?? 0);
  }

  /**
   * Sets the account's two-factor flag and bumps its version.
   * @returns the new version (for `auth.user.two_factor_changed`)
   */
  async setEnabled(userId: string, enabled: boolean): Promise<number> {
    const rows = await returningRows<{ two_factor_version: number }>(
      this.txHost.tx.query(
        `UPDATE app_user
            SET two_factor_enabled = $2, two_factor_version = two_factor_version + 1,
                updated_at = now()
          WHERE id = $1 RETURNING two_factor_version`,
        [userId, enabled],
      ),
    );
    return rows[0]?.two_factor_version ?? 0;
  }
}
