import { Injectable } from '@nestjs/common';
import { activeTransaction, returningRows, TxHost } from '@wp/persistence';
import { PasskeyCredential } from './passkey-credential.entity.js';

/** A stored passkey as the ceremonies need it. */
export type PasskeyRow = Pick<
  PasskeyCredential,
  | 'id'
  | 'userId'
  | 'credentialId'
  | 'publicKey'
  | 'signCount'
  | 'transports'
  | 'deviceType'
  | 'backedUp'
  | 'name'
  | 'rpId'
  | 'createdAt'
  | 'lastUsedAt'
>;

/** The `passkey_credential` table (docs/auth.md § Passkeys). */
@Injectable()
export class PasskeysRepository {
  constructor(private readonly txHost: TxHost) {}

  /** In the active transaction, or autocommit outside one. */
  private repo() {
    return this.txHost.tx.getRepository(PasskeyCredential);
  }

  /** The account's passkeys, oldest first. */
  listOf(userId: string): Promise<PasskeyRow[]> {
    return this.repo().find({ where: { userId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** One of the account's passkeys, or null (another account's is null too). */
  findOf(userId: string, id: string): Promise<PasskeyRow | null> {
    return this.repo().findOneBy({ id, userId });
  }

  findByCredentialId(credentialId: string): Promise<PasskeyRow | null> {
    return this.repo().findOneBy({ credentialId });
  }

  /**
   * Stores a new passkey unless its credential id is known (on any account), in the command's
   * transaction.
   * @returns false when the credential id was already registered
   */
  async insert(row: Omit<PasskeyRow, 'createdAt' | 'lastUsedAt'>) {
    const rows = await returningRows<{ id: string }>(
      activeTransaction(this.txHost).query(
        `INSERT INTO passkey_credential
           (id, user_id, credential_id, public_key, sign_count, transports, device_type,
            backed_up, name, rp_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         ON CONFLICT (credential_id) DO NOTHING RETURNING id`,
        [
          row.id,
          row.userId,
          row.credentialId,
          row.publicKey,
          row.signCount,
          row.transports,
          row.deviceType,
          row.backedUp,
          row.name,
          row.rpId,
        ],
      ),
    );
    return rows.length > 0;
  }

  /** Deletes one of the account's passkeys; its name, or null when the account has no such one. */
  async remove(userId: string, id: string): Promise<string | null> {
    const rows = await returningRows<{ name: string }>(
      activeTransaction(this.txHost).query(
        'DELETE FROM passkey_credential WHERE id = $1 AND user_id = $2 RETURNING name',
        [id, userId],
      ),
    );
    return rows[0]?.name ?? null;
  }

  /** Renames one of the account's passkeys; the row, or null when the account has no such one. */
  async rename(userId: string, id: string, name: string): Promise<PasskeyRow | null> {
    const result = await this.repo()
      .createQueryBuilder()
      .update()
      .set({ name })
      .where('id = :id AND user_id = :userId', { id, userId })
      .execute();
    return result.affected ? this.repo().findOneBy({ id }) : null;
  }

  /**
   * Records a sign-in: moves the signature counter forward and sets `last_used_at`, only if the
   * stored counter is still lower than the new one (or both are 0: an authenticator without a
   * counter, W3C WebAuthn § 6.1.1). One conditional statement, so two concurrent sign-ins
   * with one assertion cannot both pass.
   * @returns false when the counter did not move forward (a cloned authenticator or a replay)
   */
  async recordUse(id: string, newCount: number, backedUp: boolean): Promise<boolean> {
    const rows = await returningRows<{ id: string }>(
      activeTransaction(this.txHost).query(
        `UPDATE passkey_credential
            SET sign_count = $2, backed_up = $3, last_used_at = now()
          WHERE id = $1 AND (sign_count < $2 OR (sign_count = 0 AND $2 = 0))
         RETURNING id`,
        [id, newCount, backedUp],
      ),
    );
    return rows.length > 0;
  }
}
