import { Inject, Injectable } from '@nestjs/common';
import { PLATFORM_POOL } from '@wp/persistence';
import type { Pool } from 'pg';
import type { CacheWriter } from './cache-rebuilder.js';
import { TenantVersionStore, type TenantVersionEntry } from './tenant-version.store.js';

/**
 * Embedded mode: the platform database's `tenant_permission_version` table, the durable truth
 * itself (never rebuilt; every answer vouched for).
 */
@Injectable()
export class PostgresTenantVersionStore extends TenantVersionStore {
  constructor(@Inject(PLATFORM_POOL) private readonly pool: Pool) {
    super();
  }

  async raise(tenantId: string, version: number): Promise<void> {
    await this.pool.query({
      name: 'platform_tenant_version_raise',
      text: `INSERT INTO tenant_permission_version (tenant_id, version) VALUES ($1, $2)
             ON CONFLICT (tenant_id) DO UPDATE
               SET version = GREATEST(tenant_permission_version.version, EXCLUDED.version)`,
      values: [tenantId, version],
    });
  }

  async current(tenantId: string): Promise<number> {
    const { rows } = await this.pool.query<{ version: string }>({
      name: 'platform_tenant_version_current',
      text: 'SELECT version FROM tenant_permission_version WHERE tenant_id = $1',
      values: [tenantId],
    });
    return Number(rows[0]?.version ?? 0);
  }

  /** Raises every entry; nothing calls it in embedded mode. */
  async restore(_writer: CacheWriter, entries: TenantVersionEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.pool.query(
      `INSERT INTO tenant_permission_version (tenant_id, version)
       SELECT * FROM unnest($1::text[], $2::bigint[])
       ON CONFLICT (tenant_id) DO UPDATE
         SET version = GREATEST(tenant_permission_version.version, EXCLUDED.version)`,
      [entries.map((e) => e.tenantId), entries.map((e) => e.version)],
    );
  }
}
