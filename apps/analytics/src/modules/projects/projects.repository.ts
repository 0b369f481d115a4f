import { TxHost } from '@wp/persistence';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** A key pair as the auth cache holds it. */
export interface StoredKey {
  publicKey: string;
  projectId: number;
  secretKeySha256: string;
  expiresAt: Date | null;
}

export interface KeySnapshot {
  /** Database time of the read: the watermark of the next incremental read. */
  readAt: Date;
  /** Projects covered by this read (all, or those changed since the watermark). */
  projectIds: number[];
  /** Current keys of those projects (none for deleted ones). */
  keys: StoredKey[];
}

interface KeyRow {
  public_key: string;
  project_id: number;
  secret_key_sha256: string;
  expires_at: Date | null;
}

/**
 * Project and key pair rows fed by `org.project.*` events (the only file of this feature touching
 * TypeORM). Writes run in the event handler's transaction (`txHost.tx`).
 */
@Injectable()
export class ProjectsRepository {
  constructor(
    private readonly txHost: TxHost,
    private readonly dataSource: DataSource,
  ) {}

  /** Records a project (idempotent; never resurrects a deleted one). */
  async ensureProject(projectId: number, organizationId: number): Promise<void> {
    await this.txHost.tx.query(
      `INSERT INTO analytics_project (project_id, organization_id) VALUES ($1, $2)
       ON CONFLICT (project_id) DO NOTHING`,
      [projectId, organizationId],
    );
  }

  /**
   * Replaces a project's key pairs with `keys` when `version` is newer than the applied one and
   * the project is not deleted. Returns false when the event was stale (nothing changed).
   */
  async replaceKeys(
    projectId: number,
    version: number,
    keys: { id: string; publicKey: string; secretKeySha256: string; expiresAt: string | null }[],
  ): Promise<boolean> {
    // TypeORM answers an UPDATE with [rows, affected count].
    const [, affected] = await this.txHost.tx.query<[unknown[], number]>(
      `UPDATE analytics_project SET keys_version = $2, updated_at = now()
       WHERE project_id = $1 AND keys_version < $2 AND deleted_at IS NULL`,
      [projectId, version],
    );
    if (affected === 0) return false;
    await this.txHost.tx.query(`DELETE FROM project_api_key WHERE project_id = $1`, [projectId]);
    if (keys.length > 0) {
      await this.txHost.tx.query(
        `INSERT INTO project_api_key (public_key, project_id, key_id, secret_key_sha256, expires_at)
         SELECT k."publicKey", $1, k.id, k."secretKeySha256", k."expiresAt"
         FROM jsonb_to_recordset($2::jsonb)
           AS k(id text, "publicKey" text, "secretKeySha256" text, "expiresAt" timestamptz)
         ON CONFLICT (public_key) DO NOTHING`,
        [projectId, JSON.stringify(keys)],
      );
    }
    return true;
  }

  /** Marks the project deleted (terminal) and drops its keys. */
  async markDeleted(projectId: number, organizationId: number) {
    await this.txHost.tx.query(
      `INSERT INTO analytics_project (project_id, organization_id, deleted_at, updated_at)
       VALUES ($1, $2, now(), now())
       ON CONFLICT (project_id) DO UPDATE SET deleted_at = COALESCE(analytics_project.deleted_at, now()),
         updated_at = now()`,
      [projectId, organizationId],
    );
    await this.txHost.tx.query(`DELETE FROM project_api_key WHERE project_id = $1`, [projectId]);
  }

  /** Every live key pair. */
  async loadAll(): Promise<KeySnapshot> {
    const [{ now }] = await this.dataSource.query<{ now: Date }[]>(`SELECT now() AS now`);
    const rows: (KeyRow & { deleted_at: Date | null })[] = await this.dataSource.query(
      `SELECT k.public_key, k.project_id, k.secret_key_sha256, k.expires_at
       FROM project_api_key k JOIN analytics_project p ON p.project_id = k.project_id
       WHERE p.deleted_at IS NULL`,
    );
    const projects: { project_id: number }[] = await this.dataSource.query(
      `SELECT project_id FROM analytics_project`,
    );
    return { readAt: now, projectIds: projects.map((p) => p.project_id), keys: rows.map(toKey) };
  }

  /** The projects changed at or after `since`, with their current keys. */
  async changedSince(since: Date): Promise<KeySnapshot> {
    const [{ now }] = await this.dataSource.query<{ now: Date }[]>(`SELECT now() AS now`);
    const projects: { project_id: number }[] = await this.dataSource.query(
      `SELECT project_id FROM analytics_project WHERE updated_at >= $1`,
      [since],
    );
    if (projects.length === 0) return { readAt: now, projectIds: [], keys: [] };
    const ids = projects.map((p) => p.project_id);
    const rows: KeyRow[] = await this.dataSource.query(
      `SELECT k.public_key, k.project_id, k.secret_key_sha256, k.expires_at
       FROM project_api_key k JOIN analytics_project p ON p.project_id = k.project_id
       WHERE k.project_id = ANY($1::int[]) AND p.deleted_at IS NULL`,
      [ids],
    );
    return { readAt: now, projectIds: ids, keys: rows.map(toKey) };
  }

  /** Deleted projects whose data is not purged yet. */
  async pendingPurges(): Promise<number[]> {
    const rows: { project_id: number }[] = await this.dataSource.query(
      `SELECT project_id FROM analytics_project WHERE deleted_at IS NOT NULL AND purged_at IS NULL`,
    );
    return rows.map((r) => r.project_id);
  }

  async markPurged(projectId: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE analytics_project SET purged_at = now() WHERE project_id = $1`,
      [projectId],
    );
  }
}

function toKey(row: KeyRow): StoredKey {
  return {
    publicKey: row.public_key,
    projectId: row.project_id,
    secretKeySha256: row.secret_key_sha256,
    expiresAt: row.expires_at,
  };
}
