import type { EntityManager } from 'typeorm';

/**
 * Records, in a read model's event-handler transaction, that the membership change carrying
 * organization permission version `version` is applied (docs/architecture.md § Withdrawn
 * permissions at once). The table is `tenant_permission_version (organization_id integer
 * primary key, version bigint, pending bigint[])` in the service's database: `version` advances
 * only over an unbroken run 1…n, so "applied n" means every change up to n is in the read model;
 * a version arriving early waits in `pending` until the gap before it closes (a redelivery never
 * makes the read model claim a change it has not seen). Versions at or below `version` are
 * ignored (redelivery).
 */
export async function applyTenantVersion(
  manager: EntityManager,
  organizationId: number,
  version: number,
): Promise<void> {
  await manager.query(
    `INSERT INTO tenant_permission_version (organization_id) VALUES ($1)
     ON CONFLICT (organization_id) DO NOTHING`,
    [organizationId],
  );
  const [row]: { version: string; pending: string[] }[] = await manager.query(
    `SELECT version, pending FROM tenant_permission_version
     WHERE organization_id = $1 FOR UPDATE`,
    [organizationId],
  );
  let applied = Number(row.version);
  const pending = new Set(row.pending.map(Number));
  if (version <= applied) return;
  pending.add(version);
  while (pending.delete(applied + 1)) applied += 1;
  await manager.query(
    `UPDATE tenant_permission_version SET version = $2, pending = $3::bigint[]
     WHERE organization_id = $1`,
    [organizationId, applied, [...pending].sort((a, b) => a - b)],
  );
}
