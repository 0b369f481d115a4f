import type { CacheWriter } from './cache-rebuilder.js';

/** A tenant's required permission version, as org's database holds it. */
export interface TenantVersionEntry {
  tenantId: string;
  version: number;
}

/**
 * The permission version each tenant (organization) requires of its read models
 * (docs/architecture.md § Withdrawn permissions at once): org raises it, before answering, with
 * every membership change of the organization; a service whose read model has applied less
 * asks org itself. A Redis hash in services mode, rebuilt by org from
 * `organization_permission_version` when lost (§ Redis is a cache); the platform database's
 * `tenant_permission_version` table in embedded mode. Every method rejects when the store does
 * not answer (callers fail closed: 503).
 */
export abstract class TenantVersionStore {
  /** Makes the required version of `tenantId` at least `version` (never lowers it). */
  abstract raise(tenantId: string, version: number): Promise<void>;
  /**
   * The required version of `tenantId`; 0 when none was ever raised; null when the store cannot
   * vouch for it (emptied, not rebuilt by org yet: ask org).
   */
  abstract current(tenantId: string): Promise<number | null>;
  /** Raises every entry (org's database) and then marks `writer`'s part rebuilt. */
  abstract restore(writer: CacheWriter, entries: TenantVersionEntry[]): Promise<void>;
}
