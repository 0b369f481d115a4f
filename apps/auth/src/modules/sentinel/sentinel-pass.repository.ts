import { TxHost } from '@wp/persistence';
import { Injectable } from '@nestjs/common';
import type { ActivityEntry, Role } from '@wp/contracts';
import type { MembershipRoles } from '@wp/messaging';
import { credentialEpochEnds } from '@wp/security';
import { DataSource } from 'typeorm';

/** A Sentinel Pass as auth knows it (read model of `org.sentinel_pass.changed`). */
export interface SentinelPassRow {
  id: string;
  organizationId: number;
  projectId: number;
  active: boolean;
  deleted: boolean;
  keyHash: string | null;
  expiresAt: Date | null;
  allowedReferers: string[];
  scopes: string[];
  permissions: string[];
  version: number;
  usageCount: number;
  /** Grows when the key changes or the pass is revoked or deleted; part of agent tokens' `sid`. */
  credentialEpoch: number;
}

export interface PassChange {
  passId: string;
  organizationId: number;
  projectId: number;
  active: boolean;
  deleted: boolean;
  keyHash: string | null;
  expiresAt: string | null;
  allowedReferers: string[];
  scopes: string[];
  permissions: string[];
  version: number;
  /** Org's credential epoch after the change (absent from events published before it existed). */
  credentialEpoch?: number;
}

export interface MembershipChange {
  organizationId: number;
  projectId: number | null;
  userId: string;
  role: Role | null;
  accessDenied: boolean;
  version: number;
}

/** Organization-level memberships are stored with project id 0 (ids are positive). */
const ORGANIZATION_LEVEL = 0;

/**
 * The read models auth keeps for Sentinel Pass: passes (credentials), memberships (who may read
 * a pass's activity) and the activity rows. Plain SQL: every write is a single conditional
 * statement (version check, idempotent insert).
 */
@Injectable()
export class SentinelPassRepository {
  constructor(
    private readonly txHost: TxHost,
    private readonly dataSource: DataSource,
  ) {}

  /**
   * Applies a pass change when its version is newer than the stored one. A deletion keeps a
   * tombstone row (deleted, no key) so an older redelivery cannot bring the pass back.
   * The credential epoch follows `credentialEpochEnds` (the rule org applies too), and is at
   * least the `credentialEpoch` the event carries, so auth signs with org's epoch even after
   * missing an event (docs/architecture.md § Withdrawn permissions at once).
   * @returns the credential epoch whose tokens must now be refused (key changed, pass revoked
   *   or deleted, permissions or scopes narrowed, or org counted further), or null
   */
  async applyPassChange(change: PassChange): Promise<number | null> {
    const [current] = await this.txHost.tx.query<
      {
        version: number;
        active: boolean;
        deleted: boolean;
        key_hash: string | null;
        permissions: string[];
        scopes: string[];
        credential_epoch: number;
      }[]
    >(
      `SELECT version, active, deleted, key_hash, permissions, scopes, credential_epoch
       FROM sentinel_pass
       WHERE id = $1 FOR UPDATE`,
      [change.passId],
    );
    if (current && current.version >= change.version) return null;
    const keyHash = change.deleted ? null : change.keyHash;
    const active = change.active && !change.deleted;
    const ended =
      current !== undefined &&
      credentialEpochEnds(
        {
          active: current.active,
          deleted: current.deleted,
          keyHash: current.key_hash,
          permissions: current.permissions,
          scopes: current.scopes,
        },
        {
          active,
          deleted: change.deleted,
          keyHash,
          permissions: change.permissions,
          scopes: change.scopes,
        },
      );
    const stored = current?.credential_epoch ?? 0;
    const epoch = Math.max(stored + (ended ? 1 : 0), change.credentialEpoch ?? 0);
    await this.txHost.tx.query(
      `INSERT INTO sentinel_pass (id, organization_id, project_id, active, deleted, key_hash,
         expires_at, allowed_referers, scopes, permissions, version, credential_epoch, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, now())
       ON CONFLICT (id) DO UPDATE SET organization_id = EXCLUDED.organization_id,
         project_id = EXCLUDED.project_id, active = EXCLUDED.active, deleted = EXCLUDED.deleted,
         key_hash = EXCLUDED.key_hash, expires_at = EXCLUDED.expires_at,
         allowed_referers = EXCLUDED.allowed_referers, scopes = EXCLUDED.scopes,
         permissions = EXCLUDED.permissions, version = EXCLUDED.version,
         credential_epoch = EXCLUDED.credential_epoch, updated_at = now()`,
      [
        change.passId,
        change.organizationId,
        change.projectId,
        active,
        change.deleted,
        keyHash,
        change.expiresAt,
        change.allowedReferers,
        change.scopes,
        change.permissions,
        change.version,
        epoch,
      ],
    );
    return current !== undefined && epoch > stored ? stored : null;
  }

  async applyMembershipChange(change: MembershipChange): Promise<void> {
    await this.txHost.tx.query(
      `INSERT INTO membership (organization_id, project_id, user_id, role, access_denied, version)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (user_id, organization_id, project_id) DO UPDATE SET role = EXCLUDED.role,
         access_denied = EXCLUDED.access_denied, version = EXCLUDED.version
       WHERE membership.version < EXCLUDED.version`,
      [
        change.organizationId,
        change.projectId ?? ORGANIZATION_LEVEL,
        change.userId,
        change.role,
        change.accessDenied,
        change.version,
      ],
    );
  }

  /** A pass that is not deleted, or null. */
  async findPass(id: string): Promise<SentinelPassRow | null> {
    const rows = await this.dataSource.query<Record<string, unknown>[]>(
      `SELECT id, organization_id, project_id, active, deleted, key_hash, expires_at,
         allowed_referers, scopes, permissions, version, usage_count, credential_epoch
       FROM sentinel_pass WHERE id = $1 AND NOT deleted`,
      [id],
    );
    const r = rows[0];
    if (!r) return null;
    return {
      id: r['id'] as string,
      organizationId: r['organization_id'] as number,
      projectId: r['project_id'] as number,
      active: r['active'] as boolean,
      deleted: r['deleted'] as boolean,
      keyHash: r['key_hash'] as string | null,
      expiresAt: r['expires_at'] as Date | null,
      allowedReferers: r['allowed_referers'] as string[],
      scopes: r['scopes'] as string[],
      permissions: r['permissions'] as string[],
      version: r['version'] as number,
      usageCount: Number(r['usage_count']),
      credentialEpoch: r['credential_epoch'] as number,
    };
  }

  /**
   * A user's standing towards a pass's organization and project in this read model, with the
   * organization permission version it has applied (for `PermissionFreshness`).
   */
  async standingOf(userId: string, pass: SentinelPassRow): Promise<MembershipRoles> {
    const rows = await this.dataSource.query<
      { project_id: number | null; role: Role | null; access_denied: boolean; applied: string }[]
    >(
      `SELECT m.project_id, m.role, m.access_denied, v.version AS applied
       FROM (SELECT $1::uuid AS user_id, $2::integer AS organization_id) q
       LEFT JOIN tenant_permission_version v ON v.organization_id = q.organization_id
       LEFT JOIN membership m ON m.user_id = q.user_id AND m.organization_id = q.organization_id
         AND m.project_id IN ($3, $4)`,
      [userId, pass.organizationId, ORGANIZATION_LEVEL, pass.projectId],
    );
    const org = rows.find((r) => r.project_id === ORGANIZATION_LEVEL);
    const project = rows.find((r) => r.project_id === pass.projectId);
    return {
      organizationRole: org?.role ?? null,
      projectRole: project?.role ?? null,
      accessDenied: project?.access_denied ?? false,
      appliedVersion: Number(rows[0]?.applied ?? 0),
    };
  }

  /**
   * Stores a batch of activity entries in one statement, skipping ids already stored
   * (redelivery), and adds the newly stored `api_request` entries to each pass's usage count.
   */
  async insertActivity(entries: ActivityEntry[]): Promise<number> {
    const inserted = await this.txHost.tx.query<{ agent_user_id: string; activity_type: string }[]>(
      `INSERT INTO agent_activity (id, agent_user_id, activity_type, service, endpoint, method,
         status_code, latency_ms, success, client_address, error_message, occurred_at)
       SELECT id, "agentUserId", "activityType", service, endpoint, method, "statusCode",
         "latencyMs", success, "clientAddress", "errorMessage", "occurredAt"
       FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, "agentUserId" uuid, "activityType" text,
         service text, endpoint text, method text, "statusCode" int, "latencyMs" double precision,
         success boolean, "clientAddress" text, "errorMessage" text, "occurredAt" timestamptz)
       ON CONFLICT (id) DO NOTHING
       RETURNING agent_user_id, activity_type`,
      [JSON.stringify(entries)],
    );
    const usage = new Map<string, number>();
    for (const row of inserted) {
      if (row.activity_type !== 'api_request') continue;
      usage.set(row.agent_user_id, (usage.get(row.agent_user_id) ?? 0) + 1);
    }
    for (const [passId, n] of usage) {
      await this.txHost.tx.query(
        'UPDATE sentinel_pass SET usage_count = usage_count + $2 WHERE id = $1',
        [passId, n],
      );
    }
    return inserted.length;
  }
}
