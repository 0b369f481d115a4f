import { Injectable } from '@nestjs/common';
import { returningRows, TxHost } from '@wp/persistence';
import { DataSource } from 'typeorm';
import { PasswordResetToken } from './password-reset-token.entity.js';

/** Outstanding password reset tokens. */
@Injectable()
export class PasswordResetRepository {
  constructor(
    private readonly txHost: TxHost,
    private readonly dataSource: DataSource,
  ) {}

  /**
   * Stores a token for the email account with this username key (docs/auth.md § Usernames), if
   * there is one that is not disabled, replacing its previous token. One statement whether or
   * not the account exists.
   * @returns the account id and its email as stored (where the mail goes), or null when no email
   *   account has this key
   */
  async issue(
    emailKey: string,
    tokenHash: string,
    expiresAt: Date,
  ): Promise<{ userId: string; email: string } | null> {
    const rows: { user_id: string; email: string }[] = await this.txHost.tx.query(
      `WITH account AS (
         SELECT id, email FROM app_user
          WHERE username_key = $1 AND email IS NOT NULL AND status <> 'disabled'
       ), issued AS (
         INSERT INTO password_reset_token (user_id, token_hash, expires_at, created_at)
         SELECT id, $2, $3, now() FROM account
         ON CONFLICT (user_id) DO UPDATE
           SET token_hash = EXCLUDED.token_hash, expires_at = EXCLUDED.expires_at,
               created_at = EXCLUDED.created_at
         RETURNING user_id
       )
       SELECT issued.user_id, account.email FROM issued JOIN account ON account.id = issued.user_id`,
      [emailKey, tokenHash, expiresAt],
    );
    return rows[0] ? { userId: rows[0].user_id, email: rows[0].email } : null;
  }

  /** The account whose unexpired token this is, without using it up. */
  async findValid(emailKey: string, tokenHash: string): Promise<string | null> {
    const rows: { user_id: string }[] = await this.dataSource.query(
      `SELECT t.user_id FROM password_reset_token t JOIN app_user u ON u.id = t.user_id
        WHERE u.username_key = $1 AND t.token_hash = $2 AND t.expires_at > now()
          AND u.status <> 'disabled'`,
      [emailKey, tokenHash],
    );
    return rows[0]?.user_id ?? null;
  }

  /**
   * Uses the token up (single use: of two concurrent calls one gets the account).
   * @returns the account id and its email as stored
   */
  async consume(
    emailKey: string,
    tokenHash: string,
  ): Promise<{ userId: string; email: string } | null> {
    const rows = await returningRows<{ user_id: string; email: string }>(
      this.txHost.tx.query(
        `DELETE FROM password_reset_token t USING app_user u
          WHERE u.id = t.user_id AND u.username_key = $1 AND t.token_hash = $2
            AND t.expires_at > now()
          RETURNING t.user_id, u.email`,
        [emailKey, tokenHash],
      ),
    );
    return rows[0] ? { userId: rows[0].user_id, email: rows[0].email } : null;
  }

  async deleteForUser(userId: string): Promise<void> {
    await this.txHost.tx.delete(PasswordResetToken, { userId });
  }
}
