/**
 * The permission version each tenant (organization) requires of its read models
 * (docs/architecture.md § Withdrawn permissions at once): org raises it, before answering, with
 * every membership change of the organization; a service whose read model has applied less
 * asks org itself. A Redis key per organization in services mode, the platform database's
 * `tenant_permission_version` table in embedded mode. Every method rejects when the store does
 * not answer (callers fail closed: 503).
 */
export abstract class TenantVersionStore {
  /** Makes the required version of `tenantId` at least `version` (never lowers it). */
  abstract raise(tenantId: string, version: number): Promise<void>;
  /** The required version of `tenantId`; 0 when none was ever raised. */
  abstract current(tenantId: string): Promise<number>;
}
