import { effectiveProjectRole, organizationCan, projectCan } from '@wp/contracts';
import type { Principal } from '@wp/security';
import type { MembershipRoles } from '../memberships/memberships.repository.js';
import type { Wallet } from './wallet.entity.js';

/** `read`: see the wallet, its balances and history. `control`: move its money, edit it. */
export type WalletAbility = 'read' | 'control';

/**
 * Who may do what with a wallet (ARCHITECTURE § 3 "Authorization", § 4 "Who may move money"),
 * from the permission table of `@wp/contracts` (`wallet.read`, `wallet.transact`), so wallets
 * follow the same rules as every other resource:
 *
 * - a user's wallet: its user, for everything;
 * - an organization's wallet: members read (`wallet.read`: VIEWER+), OWNER/ADMIN control;
 * - a project's or agent's wallet: by the effective project role (org OWNER/ADMIN count as
 *   project ADMIN; a denied member has none): VIEWER+ read, ADMIN+ control;
 * - an agent (Sentinel Pass token) reads its own wallet and nothing else, and moves no money.
 */
export function walletAllows(
  principal: Pick<Principal, 'type' | 'id'>,
  wallet: Pick<Wallet, 'entityType' | 'entityId'>,
  roles: MembershipRoles,
  ability: WalletAbility,
): boolean {
  if (principal.type === 'agent') {
    return ability === 'read' && wallet.entityType === 'agent' && wallet.entityId === principal.id;
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
