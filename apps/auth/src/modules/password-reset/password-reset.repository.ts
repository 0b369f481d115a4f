import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { returningRows } from '../../database/returning.js';
import { PasswordResetToken } from './password-reset-token.entity.js';

/** Outstanding password reset tokens. */
@Injectable()
export class PasswordResetRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Stores a token for the account with this email, if there is one that is not disabled,
   * replacing its previous token. One statement whether or not the account exists.
   * @returns the account id, or null when no account has this email
   */
  async issue(
    email: string,
    tokenHash: string,
    expiresAt: Date,
    manager: EntityManager,
  ): Promise<string | null> {
    const rows: { user_id: string }[] = await manager.query(
      `INSERT INTO password_reset_token (user_id, token_hash, expires_at, created_at)
       SELECT id, $2, $3, now() FROM app_user WHERE email = $1 AND status <> 'disabled'
       ON CONFLICT (user_id) DO UPDATE
         SET token_hash = EXCLUDED.token_hash, expires_at = EXCLUDED.expires_at,
             created_at = EXCLUDED.created_at
       RETURNING user_id`,
      [email, tokenHash, expiresAt],
    );
    return rows[0]?.user_id ?? null;
  }

  /** The account whose unexpired token this is, without using it up. */
  async findValid(email: string, tokenHash: string): Promise<string | null> {
    const rows: { user_id: string }[] = await this.dataSource.query(
      `SELECT t.user_id FROM password_reset_token t JOIN app_user u ON u.id = t.user_id
        WHERE u.email = $1 AND t.token_hash = $2 AND t.expires_at > now()
          AND u.status <> 'disabled'`,
      [email, tokenHash],
    );
    return rows[0]?.user_id ?? null;
  }

  /** Uses the token up (single use: of two concurrent calls one gets the account id). */
  async consume(email: string, tokenHash: string, manager: EntityManager): Promise<string | null> {
    const rows = await returningRows<{ user_id: string }>(
      manager.query(
        `DELETE FROM password_reset_token t USING app_user u
          WHERE u.id = t.user_id AND u.email = $1 AND t.token_hash = $2 AND t.expires_at > now()
          RETURNING t.user_id`,
        [email, tokenHash],
      ),
    );
    return rows[0]?.user_id ?? null;
  }

  async deleteForUser(userId: string, manager: EntityManager): Promise<void> {
    await manager.delete(PasswordResetToken, { userId });
  }
}
