import { PROJECT_PERMISSIONS, type ProjectPermission } from './permissions.js';

/**
 * Sentinel Pass agent permissions (docs/org.md § Agent tokens, § Sentinel Pass).
 *
 * A pass's `permissions` is an array of strings the platform stores and echoes as sent; an agent
 * token (`typ=agent`, claim `prm`) is granted only the names below (and the coarse names of
 * {@link AGENT_PERMISSION_ALIASES}), each mapping onto entries of the project permission table
 * ({@link PROJECT_PERMISSIONS}) on the pass's project only, so users and agents are authorized
 * by the same table. Every other string grants nothing (fail-closed). Anything not granted
 * answers 403; resources of other projects or tenants answer 404.
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

/**
 * Coarse permission names a pass may hold instead of (or besides) the fine ones, each standing
 * for a set of {@link AGENT_PERMISSIONS} names:
 * - `read`:  every `*:read` name — `projects:read`, `sentinel_passes:read`, `wallets:read`;
 * - `write`: `read` plus the write permissions an agent can hold on its pass's project —
 *   `wallets:debit`, `wallets:transact` (move the project's money). Nothing else is writable by
 *   an agent: project settings, members, keys, secrets and passes stay users' work.
 */
export const AGENT_PERMISSION_ALIASES = {
  read: AGENT_PERMISSION_NAMES.filter((name) => name.endsWith(':read')),
  write: AGENT_PERMISSION_NAMES,
} as const satisfies Record<string, readonly AgentPermission[]>;

export type AgentPermissionAlias = keyof typeof AGENT_PERMISSION_ALIASES;

/** A name that grants something: an {@link AgentPermission} or an {@link AgentPermissionAlias}. */
export function isGrantingAgentPermission(value: unknown): boolean {
  return (
    isAgentPermission(value) ||
    (typeof value === 'string' && Object.hasOwn(AGENT_PERMISSION_ALIASES, value))
  );
}

/**
 * The agent permissions a pass's `permissions` grant: its known names, its aliases expanded,
 * every other string ignored (fail-closed); each name once, in {@link AGENT_PERMISSIONS} order.
 */
export function grantedAgentPermissions(granted: readonly string[]): AgentPermission[] {
  const out = new Set<AgentPermission>();
  for (const name of granted) {
    if (isAgentPermission(name)) out.add(name);
    else if (typeof name === 'string' && Object.hasOwn(AGENT_PERMISSION_ALIASES, name)) {
      for (const each of AGENT_PERMISSION_ALIASES[name as AgentPermissionAlias]) out.add(each);
    }
  }
  return AGENT_PERMISSION_NAMES.filter((name) => out.has(name));
}

/**
 * True when an agent holding `granted` (a pass's `permissions`, aliases included) may do
 * `permission`.
 */
export function agentCan(granted: readonly string[], permission: ProjectPermission): boolean {
  return grantedAgentPermissions(granted).some((name) =>
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
