import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { activeTransaction, TxHost } from '@wp/persistence';
import type { SsoCode } from './sso-code.entity.js';
import type { SsoRequest } from './sso-request.entity.js';

/** SHA-256 hex: states and codes are stored only as their hash. */
export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

/** A random single-use secret: `prefix` + 256 bits, base64url. */
export const newSecret = (prefix: string): string =>
  `${prefix}${randomBytes(32).toString('base64url')}`;

/**
 * The single-use rows of the browser flow (`sso_request`, `sso_code`). Reading one deletes it
 * in the same statement (`DELETE … RETURNING`), so a state or a code is used at most once even
 * when two requests race; an expired row is never returned. Expired rows are purged.
 */
@Injectable()
export class SsoStore {
  constructor(private readonly txHost: TxHost) {}

  async saveRequest(row: SsoRequest): Promise<void> {
    await this.txHost.tx.insert('sso_request', row);
  }

  /** The pending sign-in of a state, used up; null when unknown, used or expired. */
  async takeRequest(state: string): Promise<SsoRequest | null> {
    const rows = await this.txHost.tx.query<[SsoRequest[], number]>(
      `DELETE FROM sso_request WHERE state_hash = $1 RETURNING
         connection_id AS "connectionId", app_id AS "appId", redirect_uri AS "redirectUri",
         client_state AS "clientState", code_challenge AS "codeChallenge", nonce,
         code_verifier AS "codeVerifier", expires_at AS "expiresAt"`,
      [sha256(state)],
    );
    const row = rows[0][0];
    return row && row.expiresAt.getTime() > Date.now() ? { ...row, stateHash: '' } : null;
  }

  /** Stores a one-time code (its hash) in the command's transaction (required). */
  async saveCode(row: SsoCode): Promise<void> {
    await activeTransaction(this.txHost).insert('sso_code', row);
  }

  /** The code's grant, used up; null when unknown, used or expired. */
  async takeCode(code: string): Promise<SsoCode | null> {
    const rows = await this.txHost.tx.query<[SsoCode[], number]>(
      `DELETE FROM sso_code WHERE code_hash = $1 RETURNING
         user_id AS "userId", app_id AS "appId", redirect_uri AS "redirectUri",
         code_challenge AS "codeChallenge", expires_at AS "expiresAt",
         connection_id AS "connectionId"`,
      [sha256(code)],
    );
    const row = rows[0][0];
    return row && row.expiresAt.getTime() > Date.now() ? { ...row, codeHash: '' } : null;
  }

  /** Deletes expired requests and codes (housekeeping). */
  async purge(): Promise<void> {
    await this.txHost.tx.query('DELETE FROM sso_request WHERE expires_at < now()');
    await this.txHost.tx.query('DELETE FROM sso_code WHERE expires_at < now()');
  }
}
