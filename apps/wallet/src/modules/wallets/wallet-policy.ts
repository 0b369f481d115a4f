import {
  agentCan,
  effectiveProjectRole,
  organizationCan,
  projectCan,
  type ProjectPermission,
} from '@wp/contracts';
import type { Principal } from '@wp/security';
import type { MembershipRoles } from '../memberships/memberships.repository.js';
import type { Wallet } from './wallet.entity.js';

/**
 * `read`: see the wallet, its balances and history. `control`: edit it. `debit`: `POST
 * /wallets/{address}/debits`. `transact`: `POST /wallets/transact` out of it. For users the three
 * last are one ability (`wallet.transact`, docs/architecture.md § Who may move money); for agents
 * each is its own permission of the pass.
 */
export type WalletAbility = 'read' | 'control' | 'debit' | 'transact';

/** The caller as the policy needs it: agents carry the project their token is bound to. */
export type WalletCaller = Pick<Principal, 'type' | 'id'> & Partial<Pick<Principal, 'agent'>>;

/** What each ability asks of an agent's pass, through the project permission table. */
const AGENT_ABILITY: Record<WalletAbility, ProjectPermission | null> = {
  read: 'wallet.read',
  control: null,
  debit: 'wallet.debit',
  transact: 'wallet.transact',
};

/**
 * Who may do what with a wallet (docs/architecture.md § Identity and access ("Authorization"),
 * docs/architecture.md § Who may move money), from the permission table of `@wp/contracts`
 * (`wallet.read`, `wallet.transact`), so wallets follow the same rules as every other resource:
 *
 * - a user's wallet: its user, for everything;
 * - an organization's wallet: members read (`wallet.read`: VIEWER+), OWNER/ADMIN control;
 * - a project's or agent's wallet: by the effective project role (org OWNER/ADMIN count as
 *   project ADMIN; a denied member has none): VIEWER+ read, ADMIN+ control;
 * - an agent (Sentinel Pass token bound to a project): only the wallets of its project (entity
 *   `project` with its project id) and its own `agent` wallet exist for it, and there its pass's
 *   permissions decide through `agentCan` (`wallets:read` → read, `wallets:debit` → debit,
 *   `wallets:transact` → transact; nothing grants `control`). docs/wallet.md § Agent tokens.
 */
export function walletAllows(
  principal: WalletCaller,
  wallet: Pick<Wallet, 'entityType' | 'entityId'>,
  roles: MembershipRoles,
  ability: WalletAbility,
): boolean {
  if (principal.type === 'agent') {
    const permission = AGENT_ABILITY[ability];
    return (
      permission !== null &&
      inAgentProject(principal, wallet) &&
      agentCan(principal.agent!.permissions, permission)
    );
  }
  const permission = ability === 'read' ? 'wallet.read' : 'wallet.transact';
  switch (wallet.entityType) {
    case 'user':
      return wallet.entityId === principal.id;
    case 'organization':
      return organizationCan(roles.organizationRole, permission);
    case 'project':
    case 'agent':
      return projectCan(effectiveProjectRole(roles), permission);
  }
}

/**
 * Whether the wallet exists for the caller at all: a wallet that is not visible answers 404
 * (no existence leak), a visible one without the ability 403. Users see what they may read;
 * agents see the wallets of their project ({@link inAgentProject}) whatever their permissions.
 */
export function walletVisible(
  principal: WalletCaller,
  wallet: Pick<Wallet, 'entityType' | 'entityId'>,
  roles: MembershipRoles,
): boolean {
  if (principal.type === 'agent') return inAgentProject(principal, wallet);
  return walletAllows(principal, wallet, roles, 'read');
}

/** The agent's project's wallets and its own agent wallet; nothing for an unbound token. */
export function inAgentProject(
  principal: WalletCaller,
  wallet: Pick<Wallet, 'entityType' | 'entityId'>,
): boolean {
  const scope = principal.agent;
  if (principal.type !== 'agent' || !scope) return false;
  return (
    (wallet.entityType === 'project' && wallet.entityId === String(scope.projectId)) ||
    (wallet.entityType === 'agent' && wallet.entityId === principal.id)
  );
}
