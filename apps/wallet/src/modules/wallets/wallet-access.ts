import { Injectable } from '@nestjs/common';
import { AgentForbiddenError, type Principal } from '@wp/security';
import {
  MembershipsRepository,
  NO_ROLES,
  type MembershipRoles,
} from '../memberships/memberships.repository.js';
import { PermissionFreshness } from '@wp/messaging';
import type { Wallet, WalletEntityType } from './wallet.entity.js';
import { WalletIdentities, type WalletIdentity } from './wallet-identities.js';
import { walletAllows, walletVisible, type WalletAbility } from './wallet-policy.js';
import { LedgerError } from '../../common/ledger-error.js';
import { InsufficientPermissionsError, WalletNotFoundError } from './wallets.errors.js';
import { WalletsRepository } from './wallets.repository.js';

const CONTROL_DENIED =
  "Only the wallet's user, or an OWNER/ADMIN of its organization or project, may do this.";

/**
 * Who may see, control and move money out of a wallet: every wallet access decision of the
 * wallet service, read in one place. The rules themselves are `wallet-policy.ts`; this unit
 * loads the wallet and the caller's roles (the membership read model) and applies them.
 */
@Injectable()
export class WalletAccess {
  constructor(
    private readonly wallets: WalletsRepository,
    private readonly memberships: MembershipsRepository,
    private readonly identities: WalletIdentities,
    private readonly freshness: PermissionFreshness,
  ) {}

  /**
   * The wallet if the caller may `ability` it.
   * @throws WalletNotFoundError (404) when it does not exist or is not visible to the caller
   *   (`walletVisible`: for an agent, not a wallet of its project)
   * @throws InsufficientPermissionsError (403) when the caller sees it but may not do this;
   *   AgentForbiddenError (403 `AGENT_FORBIDDEN`) for an agent whose pass does not grant it
   */
  async require(principal: Principal, address: string, ability: WalletAbility): Promise<Wallet> {
    return (await this.decide(principal, address, ability)).wallet;
  }

  /**
   * The identity of a wallet the caller may move money out of, for the movement paths: from
   * memory when known (then a personal wallet costs no query, an organization's or project's
   * one the required permission version, and the caller's roles only when they changed since
   * this process last read them: `PermissionFreshness.current`), else as {@link require}.
   * Whether the wallet is still open is left to the ledger function, except when org has
   * answered that its project is deleted (`projectDeleted`) before this process closed it.
   * `ability` is `debit` (debits) or `transact` (the default): the same for users, separate
   * pass permissions for agents.
   * @throws WalletNotFoundError (404), InsufficientPermissionsError / AgentForbiddenError (403),
   *   LedgerError 422 `WALLET_CLOSED` (the project is deleted; the ledger's answer once closed)
   */
  async requireToMove(
    principal: Principal,
    address: string,
    ability: 'debit' | 'transact' = 'transact',
  ): Promise<WalletIdentity> {
    const identity = this.identities.get(address);
    if (!identity) {
      const { wallet, roles } = await this.decide(principal, address, ability);
      if (roles.projectDeleted) throw projectWalletClosed();
      return this.identities.remember(wallet);
    }
    const { organizationId, projectId } = identity;
    const roles =
      principal.type === 'user' && organizationId !== null
        ? await this.freshness.current(principal.id, organizationId, projectId, () =>
            this.memberships.rolesOf(principal.id, organizationId, projectId),
          )
        : NO_ROLES;
    if (!walletVisible(principal, identity, roles)) throw new WalletNotFoundError();
    if (!walletAllows(principal, identity, roles, ability)) throw denied(principal);
    if (roles.projectDeleted) throw projectWalletClosed();
    return identity;
  }

  /** The identity of any wallet by address (credits), from memory when known. */
  async identityOf(address: string): Promise<WalletIdentity | null> {
    const known = this.identities.get(address);
    if (known) return known;
    const wallet = await this.findAny(address);
    return wallet ? this.identities.remember(wallet) : null;
  }

  /** Whether the caller may `ability` the wallet (false also when it does not exist). */
  async allows(principal: Principal, address: string, ability: WalletAbility): Promise<boolean> {
    const found = await this.wallets.findWithRoles(
      address,
      principal.type === 'user' ? principal.id : null,
    );
    if (found === null) return false;
    const roles = await this.confirmed(principal, found.wallet, found.roles);
    if (roles.projectDeleted && ability !== 'read') return false;
    return walletAllows(principal, found.wallet, roles, ability);
  }

  /**
   * The wallet and the caller's confirmed roles, if the caller may `ability` it
   * ({@link require}'s decision).
   */
  private async decide(
    principal: Principal,
    address: string,
    ability: WalletAbility,
  ): Promise<{ wallet: Wallet; roles: MembershipRoles }> {
    const found = await this.wallets.findWithRoles(
      address,
      principal.type === 'user' ? principal.id : null,
    );
    if (!found) throw new WalletNotFoundError();
    const roles = await this.confirmed(principal, found.wallet, found.roles);
    if (!walletVisible(principal, found.wallet, roles)) throw new WalletNotFoundError();
    if (!walletAllows(principal, found.wallet, roles, ability)) throw denied(principal);
    return { wallet: found.wallet, roles };
  }

  /**
   * A user's roles towards an organization's / project's wallet, confirmed current
   * (`PermissionFreshness`: the read model's, or org's when the read model is behind the
   * organization's permission version); others' unchanged.
   * @throws DomainError 503 when they cannot be confirmed
   */
  private confirmed(
    principal: Principal,
    wallet: { organizationId: number | null; projectId: number | null },
    roles: MembershipRoles,
  ): Promise<MembershipRoles> | MembershipRoles {
    if (principal.type !== 'user' || wallet.organizationId === null) return roles;
    return this.freshness.confirm(principal.id, wallet.organizationId, wallet.projectId, roles);
  }

  /**
   * The open wallets a user may `ability`, optionally of one entity type, oldest first (none
   * for an agent: its wallets are its project's, see `WalletsService.listVisible`): the
   * read model's candidates with each organization's roles confirmed current (one confirmation
   * per organization and project, not per wallet), so a withdrawn role hides its wallets from
   * lists at once, as it does from {@link require}.
   * @throws DomainError 503 when the roles of an organization cannot be confirmed
   */
  async walletsFor(
    principal: Principal,
    ability: WalletAbility,
    entityType?: WalletEntityType,
  ): Promise<Wallet[]> {
    if (principal.type !== 'user') return [];
    const candidates = await this.wallets.findCandidatesFor(principal.id, entityType);
    const confirmations = new Map<string, Promise<MembershipRoles>>();
    const confirmedRoles = candidates.map(({ wallet, roles }) => {
      const key = `${wallet.organizationId}/${wallet.projectId}`;
      if (!confirmations.has(key)) {
        confirmations.set(key, Promise.resolve(this.confirmed(principal, wallet, roles)));
      }
      return confirmations.get(key)!;
    });
    const roles = await Promise.all(confirmedRoles);
    return candidates
      .filter(
        (c, i) => !roles[i].projectDeleted && walletAllows(principal, c.wallet, roles[i], ability),
      )
      .map((c) => c.wallet);
  }

  /** Addresses of the open wallets the caller may `ability` (their transfer requests' scope). */
  async addressesFor(principal: Principal, ability: WalletAbility): Promise<string[]> {
    const wallets = await this.walletsFor(principal, ability);
    return wallets.map((w) => w.addressHash);
  }

  /**
   * The caller's roles towards an organization (and project), confirmed current as in
   * {@link require}: what `create_entity_wallet` decides with.
   * @throws DomainError 503 when they cannot be confirmed
   */
  async rolesOf(
    principal: Principal,
    organizationId: number,
    projectId: number | null,
  ): Promise<MembershipRoles> {
    if (principal.type !== 'user') return NO_ROLES;
    const roles = await this.memberships.rolesOf(principal.id, organizationId, projectId);
    return this.confirmed(principal, { organizationId, projectId }, roles);
  }

  /** Any wallet by address, whoever may see it (operator paths: credits with `Admin-Access`). */
  async findAny(address: string): Promise<Wallet | null> {
    return (await this.wallets.findWithRoles(address, null))?.wallet ?? null;
  }

  /**
   * The user ids that control a wallet: who receives a transfer request's code and may accept
   * it (for an organization wallet its OWNERs/ADMINs).
   */
  async controllersOf(wallet: Wallet): Promise<string[]> {
    if (wallet.entityType === 'user') return [wallet.entityId];
    if (wallet.organizationId === null) return [];
    const members = await this.memberships.membersWithRoles(
      wallet.organizationId,
      wallet.projectId,
    );
    return members
      .filter((m) => walletAllows({ type: 'user', id: m.userId }, wallet, m.roles, 'control'))
      .map((m) => m.userId);
  }
}

/**
 * The 422 of a wallet whose project org has deleted while this process's read model has not
 * closed it yet (org said so: `projectDeleted`); the same answer the ledger gives once it is
 * closed (docs/wallet.md § Closed wallets).
 */
function projectWalletClosed(): Error {
  return new LedgerError(
    'WALLET_CLOSED',
    'This wallet is closed: its organization, project or agent was deleted.',
  );
}

/** The 403 of a caller who sees a wallet but may not do this with it. */
function denied(principal: Principal): Error {
  return principal.type === 'agent'
    ? new AgentForbiddenError('This Sentinel Pass does not grant this on the wallet.')
    : new InsufficientPermissionsError(CONTROL_DENIED);
}
