import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { returningRows } from '../../database/returning.js';
import type { User } from '../users/user.entity.js';
import { RefreshTokenFamily } from './refresh-token-family.entity.js';
import { RefreshToken } from './refresh-token.entity.js';

/** A presented refresh token with its family and user, as read in one query. */
export interface PresentedRefreshToken {
  familyId: string;
  appId: string;
  /** Generation of the presented token. */
  tokenGeneration: number;
  /** Generation of the family's current token when read (may move on at any moment). */
  familyGeneration: number;
  user: Pick<User, 'id' | 'email' | 'phone' | 'firstName' | 'lastName' | 'status'>;
}

/** The family's state as of now, for the replay decision. */
export interface FamilyReplayState {
  generation: number;
  live: boolean;
  inGrace: boolean;
  graceResponse: string | null;
}

export interface Rotation {
  familyId: string;
  currentHash: string;
  newHash: string;
  sealedResponse: string | null;
}

/** Refresh token families and their tokens: the only file of the feature that touches TypeORM. */
@Injectable()
export class SessionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Inserts a family and its first token (generation 0). */
  async insert(family: RefreshTokenFamily, manager: EntityManager): Promise<void> {
    await manager.insert(RefreshTokenFamily, family);
    await manager.insert(RefreshToken, {
      tokenHash: family.currentTokenHash,
      familyId: family.id,
      generation: 0,
      issuedAt: family.createdAt,
    });
  }

  /** Finds the family and user of any token ever issued (current or older). */
  async findByTokenHash(tokenHash: string): Promise<PresentedRefreshToken | null> {
    const rows: {
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
    }[] = await this.dataSource.query(
      `SELECT t.family_id, f.app_id, t.generation, f.generation AS family_generation,
              u.id AS user_id, u.email, u.phone, u.first_name, u.last_name, u.status
         FROM refresh_token t
         JOIN refresh_token_family f ON f.id = t.family_id
         JOIN app_user u ON u.id = f.user_id
        WHERE t.token_hash = $1`,
      [tokenHash],
    );
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
    };
  }

  /**
   * The rotation (ARCHITECTURE § 3): ONE conditional statement that replaces the current token
   * if and only if the presented one is still current and the family is live, and records the
   * new token. The row lock it takes is the one logout takes, so a concurrent logout either
   * waits for it (and then revokes the new token too) or wins (and this matches nothing).
   * @returns true when this call rotated the family
   */
  async rotate(rotation: Rotation): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `WITH rotated AS (
         UPDATE refresh_token_family
            SET current_token_hash = $3, generation = generation + 1,
                rotated_at = now(), grace_response = $4
          WHERE id = $1 AND current_token_hash = $2
            AND revoked_at IS NULL AND expires_at > now()
          RETURNING id, generation)
       INSERT INTO refresh_token (token_hash, family_id, generation, issued_at)
       SELECT $3, id, generation, now() FROM rotated
       RETURNING generation`,
      [rotation.familyId, rotation.currentHash, rotation.newHash, rotation.sealedResponse],
    );
    return rows.length === 1;
  }

  /** The family as committed now: generation, liveness, and whether the grace window is open. */
  async replayState(familyId: string, graceSeconds: number): Promise<FamilyReplayState | null> {
    const rows: {
      generation: number;
      live: boolean;
      in_grace: boolean;
      grace_response: string | null;
    }[] = await this.dataSource.query(
      `SELECT generation,
              (revoked_at IS NULL AND expires_at > now()) AS live,
              COALESCE(rotated_at > now() - make_interval(secs => $2), false) AS in_grace,
              grace_response
         FROM refresh_token_family WHERE id = $1`,
      [familyId, graceSeconds],
    );
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
  async revoke(familyId: string, reason: string, manager: EntityManager): Promise<boolean> {
    const rows = await returningRows<{ id: string }>(
      manager.query(
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
    manager: EntityManager,
  ): Promise<string[]> {
    const rows = await returningRows<{ id: string }>(
      manager.query(
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

  /** Housekeeping: forgets sealed pairs whose grace window closed, deletes expired families. */
  async purge(graceSeconds: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE refresh_token_family SET grace_response = NULL
        WHERE grace_response IS NOT NULL AND rotated_at < now() - make_interval(secs => $1)`,
      [graceSeconds],
    );
    await this.dataSource.query(`DELETE FROM refresh_token_family WHERE expires_at < now()`);
  }
}
