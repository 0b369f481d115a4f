import { PROJECT_PERMISSIONS, type ProjectPermission } from './permissions.js';

/**
 * Sentinel Pass agent permissions (contract § "the service"; issue 8).
 *
 * A pass's `permissions` array holds these names. An agent token (`typ=agent`) is confined to the
 * pass's project: each name grants the listed entries of the project permission table
 * ({@link PROJECT_PERMISSIONS}) on that project only, so users and agents are authorized by the
 * same table. Anything not granted answers 403; resources of other projects or tenants answer 404.
 *
 * - `projects:read`         read the project (`GET P/{projectId}`) and its members list
 * - `sentinel_passes:read`  list and read the project's passes (never keys)
 * - `wallets:read`          list and read the project's wallets and their transactions
 * - `wallets:debit`         debit the project's wallets (`POST /wallets/{address}/debits`)
 * - `wallets:transact`      move money out of the project's wallets (`POST /wallets/transact`)
 */
export const AGENT_PERMISSIONS = {
  'projects:read': ['project.read'],
  'sentinel_passes:read': ['sentinelPass.read'],
  'wallets:read': ['wallet.read'],
  'wallets:debit': ['wallet.read', 'wallet.debit'],
  'wallets:transact': ['wallet.read', 'wallet.debit', 'wallet.transact'],
} as const satisfies Record<string, readonly ProjectPermission[]>;

export type AgentPermission = keyof typeof AGENT_PERMISSIONS;

export const AGENT_PERMISSION_NAMES = Object.keys(AGENT_PERMISSIONS) as AgentPermission[];

export function isAgentPermission(value: unknown): value is AgentPermission {
  return typeof value === 'string' && Object.hasOwn(AGENT_PERMISSIONS, value);
}

/** True when an agent holding `granted` (a pass's `permissions`) may do `permission`. */
export function agentCan(granted: readonly string[], permission: ProjectPermission): boolean {
  return granted.some(
    (name) =>
      isAgentPermission(name) &&
      (AGENT_PERMISSIONS[name] as readonly ProjectPermission[]).includes(permission),
  );
}

/**
 * `meta.can` map of a project for an agent holding `granted`: the same nested shape as
 * {@link projectCanMap}, each project permission true exactly when {@link agentCan} allows it.
 */
export function agentCanMap(granted: readonly string[]): Record<string, Record<string, boolean>> {
  const out: Record<string, Record<string, boolean>> = {};
  for (const permission of Object.keys(PROJECT_PERMISSIONS) as ProjectPermission[]) {
    const [group, action] = permission.split('.') as [string, string];
    (out[group] ??= {})[action] = agentCan(granted, permission);
  }
  return out;
}
