import { Injectable } from '@nestjs/common';
import { outboxDraftInsert, outboxDraftValues, type OutboxDraft } from '@wp/messaging';
import { preparedQuery, returningRows, type PreparedStatement, TxHost } from '@wp/persistence';
import { DataSource } from 'typeorm';
import type { User } from '../accounts/user.entity.js';
import type { RefreshTokenFamily } from './refresh-token-family.entity.js';

/** A presented refresh token with its family and user, as read in one query. */
export interface PresentedRefreshToken {
  familyId: string;
  appId: string;
  /** Generation of the presented token. */
  tokenGeneration: number;
  /** Generation of the family's current token when read (may move on at any moment). */
  familyGeneration: number;
  user: Pick<User, 'id' | 'email' | 'phone' | 'firstName' | 'lastName' | 'status'>;
  /** `amr` of the family's sign-in (passkey sessions), signed into every access token. */
  amr?: string[] | null;
}

/** The family's state as of now, for the replay decision. */
export interface FamilyReplayState {
  generation: number;
  live: boolean;
  inGrace: boolean;
  graceResponse: string | null;
}

/** Where a session was last used from (sessions list; docs/auth.md § Session management). */
export interface SessionClient {
  userAgent: string | null;
  clientAddress: string | null;
}

export interface Rotation {
  familyId: string;
  appId: string;
  /** The user the new pair was signed for; the rotation re-checks this profile. */
  user: Pick<User, 'id' | 'email' | 'firstName' | 'lastName'>;
  currentHash: string;
  newHash: string;
  sealedResponse: string | null;
  /** Recorded as the session's last use. */
  client: SessionClient;
}

/** A live session of a user as the sessions list shows it. */
export interface ActiveSessionRow {
  id: string;
  appId: string;
  appName: string | null;
  createdAt: Date;
  lastUsedAt: Date;
  expiresAt: Date;
  userAgent: string | null;
  clientAddress: string | null;
}

const FAMILY_CTE = `family AS (
           INSERT INTO refresh_token_family
                  (id, user_id, app_id, current_token_hash, generation, expires_at, created_at,
                   last_used_at, last_user_agent, last_client_address, amr, passkey_id,
                   connection_id)
           VALUES ($1, $2, $3, $4, 0, $5, $6, $6, $7, $8, $9, $10, $11)
           RETURNING id, current_token_hash, created_at)`;
const FIRST_TOKEN = `INSERT INTO refresh_token (token_hash, family_id, generation, issued_at)
         SELECT current_token_hash, id, 0, created_at FROM family`;

/**
 * A family and its first token (generation 0) in ONE statement, so opening a session is a
 * single round trip and atomic without a transaction of its own (the foreign key of
 * `refresh_token` is checked at the end of the statement, when the family row exists).
 */
const INSERT_FAMILY: PreparedStatement = {
  name: 'auth_session_open',
  text: `WITH ${FAMILY_CTE}
         ${FIRST_TOKEN}`,
};

/**
 * The same with the sign-in's audit event (an outbox row, $12-$15): session and event commit
 * together in one round trip (a data-modifying CTE runs whether or not it is read).
 */
const INSERT_FAMILY_AUDITED: PreparedStatement = {
  name: 'auth_session_open_audited',
  text: `WITH ${FAMILY_CTE},
         event AS (${outboxDraftInsert(12)})
         ${FIRST_TOKEN}`,
};

const FIND_BY_TOKEN_HASH: PreparedStatement = {
  name: 'auth_refresh_find',
  text: `SELECT t.family_id, f.app_id, t.generation, f.generation AS family_generation,
                u.id AS user_id, u.email, u.phone, u.first_name, u.last_name, u.status, f.amr
           FROM refresh_token t
           JOIN refresh_token_family f ON f.id = t.family_id
           JOIN app_user u ON u.id = f.user_id
          WHERE t.token_hash = $1`,
};

/**
 * The rotation: replaces the current token if and only if the presented one ($2) is still
 * current, the family live, and its user active with exactly the profile the new access token
 * and answer were built from ($5-$9); records the new token and the session's last use
 * ($10-$11); returns its generation.
 */
const ROTATE: PreparedStatement = {
  name: 'auth_refresh_rotate',
  text: `WITH rotated AS (
           UPDATE refresh_token_family f
              SET current_token_hash = $3, generation = f.generation + 1,
                  rotated_at = now(), grace_response = $4,
                  last_used_at = now(), last_user_agent = $10, last_client_address = $11
            WHERE f.id = $1 AND f.current_token_hash = $2
              AND f.revoked_at IS NULL AND f.expires_at > now()
              AND f.user_id = $5 AND f.app_id = $6
              AND EXISTS (SELECT 1 FROM app_user u
                           WHERE u.id = $5 AND u.status = 'active'
                             AND u.email IS NOT DISTINCT FROM $7
                             AND u.first_name = $8 AND u.last_name = $9)
            RETURNING f.id, f.generation)
         INSERT INTO refresh_token (token_hash, family_id, generation, issued_at)
         SELECT $3, id, generation, now() FROM rotated
         RETURNING generation`,
};

const REPLAY_STATE: PreparedStatement = {
  name: 'auth_refresh_replay_state',
  text: `SELECT generation,
                (revoked_at IS NULL AND expires_at > now()) AS live,
                COALESCE(rotated_at > now() - make_interval(secs => $2), false) AS in_grace,
                grace_response
           FROM refresh_token_family WHERE id = $1`,
};

/**
 * Refresh token families and their tokens: the only file of the feature that touches the
 * database. The refresh and login hot paths use named prepared statements on the pg pool
 * (parsed and planned once per connection); work inside a caller's transaction goes through its
 * `EntityManager`.
 */
@Injectable()
export class SessionsRepository {
  constructor(
    private readonly txHost: TxHost,
    private readonly dataSource: DataSource,
  ) {}

  /**
   * Inserts a family and its first token (generation 0) in one statement.
   * In the transaction active in the async context (`TxHost`); none: runs alone as a prepared
   * statement (the statement is atomic)
   * @param event an outbox row (the sign-in's audit entry) written by the same statement; only
   *   outside a transaction (in one, the event goes through `Outbox.enqueue`)
   * @throws Error when `event` is given while a transaction is active
   */
  async insert(
    family: Pick<
      RefreshTokenFamily,
      | 'id'
      | 'userId'
      | 'appId'
      | 'currentTokenHash'
      | 'expiresAt'
      | 'createdAt'
      | 'lastUserAgent'
      | 'lastClientAddress'
    > &
      Partial<Pick<RefreshTokenFamily, 'amr' | 'passkeyId' | 'connectionId'>>,
    event?: OutboxDraft,
  ): Promise<void> {
    const values = [
      family.id,
      family.userId,
      family.appId,
      family.currentTokenHash,
      family.expiresAt,
      family.createdAt,
      family.lastUserAgent,
      family.lastClientAddress,
      family.amr ?? null,
      family.passkeyId ?? null,
      family.connectionId ?? null,
    ];
    const inTransaction = this.txHost.isTransactionActive();
    if (event) {
      if (inTransaction) throw new Error('a transaction is active: enqueue the event in it');
      await preparedQuery(this.dataSource, INSERT_FAMILY_AUDITED, [
        ...values,
        ...outboxDraftValues(event),
      ]);
    } else if (inTransaction) await this.txHost.tx.query(INSERT_FAMILY.text, values);
    else await preparedQuery(this.dataSource, INSERT_FAMILY, values);
  }

  /** Finds the family and user of any token ever issued (current or older). */
  async findByTokenHash(tokenHash: string): Promise<PresentedRefreshToken | null> {
    const rows = await preparedQuery<{
      family_id: string;
      app_id: string;
      generation: number;
      family_generation: number;
      user_id: string;
      email: string | null;
      phone: string | null;
      first_name: string;
      last_name: string;
      status: User['status'];
      amr: string[] | null;
    }>(this.dataSource, FIND_BY_TOKEN_HASH, [tokenHash]);
    const row = rows[0];
    if (!row) return null;
    return {
      familyId: row.family_id,
      appId: row.app_id,
      tokenGeneration: row.generation,
      familyGeneration: row.family_generation,
      user: {
        id: row.user_id,
        email: row.email,
        phone: row.phone,
        firstName: row.first_name,
        lastName: row.last_name,
        status: row.status,
      },
      amr: row.amr,
    };
  }

  /**
   * The rotation (docs/architecture.md § Identity and access): ONE conditional statement that
   * replaces the current token if and only if the presented one is still current, the family is
   * live and the user is active with the profile given, and records the new token. The row lock it
   * takes is the one logout takes, so a concurrent logout either waits for it (and then revokes the
   * new token too) or wins (and this matches nothing).
   * @returns true when this call rotated the family
   */
  async rotate(rotation: Rotation): Promise<boolean> {
    const { user } = rotation;
    const rows = await preparedQuery(this.dataSource, ROTATE, [
      rotation.familyId,
      rotation.currentHash,
      rotation.newHash,
      rotation.sealedResponse,
      user.id,
      rotation.appId,
      user.email,
      user.firstName,
      user.lastName,
      rotation.client.userAgent,
      rotation.client.clientAddress,
    ]);
    return rows.length === 1;
  }

  /** The family as committed now: generation, liveness, and whether the grace window is open. */
  async replayState(familyId: string, graceSeconds: number): Promise<FamilyReplayState | null> {
    const rows = await preparedQuery<{
      generation: number;
      live: boolean;
      in_grace: boolean;
      grace_response: string | null;
    }>(this.dataSource, REPLAY_STATE, [familyId, graceSeconds]);
    const row = rows[0];
    return row
      ? {
          generation: row.generation,
          live: row.live,
          inGrace: row.in_grace,
          graceResponse: row.grace_response,
        }
      : null;
  }

  /**
   * Revokes one family (takes its row lock until the caller's transaction ends).
   * @returns true when it was live before
   */
  async revoke(familyId: string, reason: string): Promise<boolean> {
    const rows = await returningRows<{ id: string }>(
      this.txHost.tx.query(
        `UPDATE refresh_token_family
            SET revoked_at = now(), revoked_reason = $2, grace_response = NULL
          WHERE id = $1 AND revoked_at IS NULL
          RETURNING id`,
        [familyId, reason],
      ),
    );
    return rows.length > 0;
  }

  /**
   * Revokes every live family of a user, except `keepFamilyId` when given.
   * @returns the ids of the families revoked
   */
  async revokeAllOfUser(
    userId: string,
    reason: string,
    keepFamilyId: string | null,
  ): Promise<string[]> {
    const rows = await returningRows<{ id: string }>(
      this.txHost.tx.query(
        `UPDATE refresh_token_family
            SET revoked_at = now(), revoked_reason = $2, grace_response = NULL
          WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > now()
            AND ($3::uuid IS NULL OR id <> $3::uuid)
          RETURNING id`,
        [userId, reason, keepFamilyId],
      ),
    );
    return rows.map((r) => r.id);
  }

  /**
   * Revokes every live session of a user opened by signing in with one passkey (row-locked until
   * the caller's transaction ends, like logout), and the user's passkey sessions whose passkey is
   * unknown: opened before sessions recorded it, or by an earlier release during a rolling update
   * (`amr` with `hwk`, `passkey_id` null). Any of the account's passkeys may have opened those,
   * so removing one ends them too (docs/auth.md § Passkeys, "Removing a passkey").
   * @returns the ids of the families revoked
   */
  async revokeAllOfPasskey(userId: string, passkeyId: string, reason: string): Promise<string[]> {
    const rows = await returningRows<{ id: string }>(
      this.txHost.tx.query(
        `UPDATE refresh_token_family
            SET revoked_at = now(), revoked_reason = $3, grace_response = NULL
          WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > now()
            AND (passkey_id = $2 OR (passkey_id IS NULL AND 'hwk' = ANY (amr)))
          RETURNING id`,
        [userId, passkeyId, reason],
      ),
    );
    return rows.map((r) => r.id);
  }

  /** The user's live sessions, most recently used first, with their client application's name. */
  async findActiveOfUser(userId: string): Promise<ActiveSessionRow[]> {
    const rows = await this.dataSource.query<
      {
        id: string;
        app_id: string;
        app_name: string | null;
        created_at: Date;
        last_used_at: Date;
        expires_at: Date;
        last_user_agent: string | null;
        last_client_address: string | null;
      }[]
    >(
      `SELECT f.id, f.app_id, a.name AS app_name, f.created_at,
              coalesce(f.last_used_at, f.created_at) AS last_used_at, f.expires_at,
              f.last_user_agent, f.last_client_address
         FROM refresh_token_family f
         LEFT JOIN client_application a ON a.id = f.app_id
        WHERE f.user_id = $1 AND f.revoked_at IS NULL AND f.expires_at > now()
        ORDER BY coalesce(f.last_used_at, f.created_at) DESC, f.id`,
      [userId],
    );
    return rows.map((r) => ({
      id: r.id,
      appId: r.app_id,
      appName: r.app_name,
      createdAt: r.created_at,
      lastUsedAt: r.last_used_at,
      expiresAt: r.expires_at,
      userAgent: r.last_user_agent,
      clientAddress: r.last_client_address,
    }));
  }

  /**
   * Revokes one live session of a user (row-locked until the caller's transaction ends, like
   * logout). @returns false when the user has no such live session
   */
  async revokeOfUser(userId: string, familyId: string, reason: string): Promise<boolean> {
    const rows = await returningRows<{ id: string }>(
      this.txHost.tx.query(
        `UPDATE refresh_token_family
            SET revoked_at = now(), revoked_reason = $3, grace_response = NULL
          WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL AND expires_at > now()
          RETURNING id`,
        [familyId, userId, reason],
      ),
    );
    return rows.length > 0;
  }
}
