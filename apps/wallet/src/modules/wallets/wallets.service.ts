import { Injectable } from '@nestjs/common';
import { ValidationFailedError } from '@wp/http';
import { Outbox } from '@wp/messaging';
import { AgentForbiddenError, type Principal } from '@wp/security';
import { DataSource, type EntityManager } from 'typeorm';
import { AssetsService } from '../assets/assets.service.js';
import { LedgerRepository } from '../ledger/ledger.repository.js';
import {
  MembershipsRepository,
  NO_ROLES,
  type MembershipRoles,
} from '../memberships/memberships.repository.js';
import { PermissionFreshness } from '../memberships/permission-freshness.js';
import type { EntityWalletDto } from './dto/create-entity-wallet.dto.js';
import type { WalletChangesDto } from './dto/update-wallet.dto.js';
import type { Wallet, WalletEntityType } from './wallet.entity.js';
import { WalletIdentities, type WalletIdentity } from './wallet-identities.js';
import { walletAllows, walletVisible, type WalletAbility } from './wallet-policy.js';
import { toWalletRecord, type WalletRecord } from './wallet.serializer.js';
import {
  EntityNotFoundError,
  InsufficientPermissionsError,
  OrganizationMismatchError,
  WalletAlreadyExistsError,
  WalletNotFoundError,
} from './wallets.errors.js';
import { WalletsRepository, type NewWallet } from './wallets.repository.js';

const CONTROL_DENIED =
  "Only the wallet's user, or an OWNER/ADMIN of its organization or project, may do this.";

/** Where an entity's access is decided: its organization / project, from the read model. */
interface EntityScope {
  organizationId: number | null;
  projectId: number | null;
  roles: MembershipRoles;
}

/** Wallets: visibility, records with balances, editing, creation (docs/api.md § Wallets). */
@Injectable()
export class WalletsService {
  constructor(
    private readonly wallets: WalletsRepository,
    private readonly memberships: MembershipsRepository,
    private readonly ledger: LedgerRepository,
    private readonly assets: AssetsService,
    private readonly outbox: Outbox,
    private readonly dataSource: DataSource,
    private readonly identities: WalletIdentities,
    private readonly freshness: PermissionFreshness,
  ) {}

  /**
   * Opens a wallet exactly once per (entity, purpose) and announces it with
   * `wallet.wallet.created`, in the caller's transaction.
   * @returns the new wallet, or null when it already existed
   */
  async open(wallet: NewWallet, manager: EntityManager): Promise<Wallet | null> {
    const created = await this.wallets.insertIfAbsent(wallet, manager);
    if (created) {
      await this.outbox.enqueue(manager, 'wallet.wallet.created', {
        addressHash: created.addressHash,
        entityType: created.entityType,
        entityId: created.entityId,
        purpose: created.purpose,
        currency: created.currency,
      });
    }
    return created;
  }

  /**
   * `GET /wallets`: the open wallets the caller may read (own, organizations', projects',
   * agents'), optionally of one entity type, oldest first, with balances. An agent lists its
   * project's wallets and its own agent wallet, and needs `wallets:read` for it.
   * @throws AgentForbiddenError 403 `AGENT_FORBIDDEN` for an agent without `wallets:read`
   */
  async listVisible(principal: Principal, entityType?: WalletEntityType): Promise<WalletRecord[]> {
    let visible: Wallet[];
    if (principal.type === 'agent') {
      visible = await this.agentWallets(principal, entityType);
    } else {
      const candidates = await this.wallets.findCandidatesFor(principal.id, entityType);
      visible = candidates
        .filter((c) => walletAllows(principal, c.wallet, c.roles, 'read'))
        .map((c) => c.wallet);
    }
    return this.withBalances(visible);
  }

  /** `GET /wallets/{addressHash}`: one wallet the caller may read, with balances. */
  async get(principal: Principal, address: string): Promise<WalletRecord> {
    const wallet = await this.require(principal, address, 'read');
    const [record] = await this.withBalances([wallet]);
    return record;
  }

  /**
   * The wallet if the caller may `ability` it.
   * @throws WalletNotFoundError (404) when it does not exist or is not visible to the caller
   *   (`walletVisible`: for an agent, not a wallet of its project)
   * @throws InsufficientPermissionsError (403) when the caller sees it but may not do this;
   *   AgentForbiddenError (403 `AGENT_FORBIDDEN`) for an agent whose pass does not grant it
   */
  async require(principal: Principal, address: string, ability: WalletAbility): Promise<Wallet> {
    const found = await this.wallets.findWithRoles(
      address,
      principal.type === 'user' ? principal.id : null,
    );
    if (!found) throw new WalletNotFoundError();
    const roles = await this.confirmed(principal, found.wallet, found.roles);
    if (!walletVisible(principal, found.wallet, roles)) throw new WalletNotFoundError();
    if (!walletAllows(principal, found.wallet, roles, ability)) throw denied(principal);
    return found.wallet;
  }

  /**
   * The identity of a wallet the caller may move money out of, for the movement paths: from
   * memory when known (then a personal wallet costs no query, an organization's or project's
   * one the caller's roles), else as {@link require}. Whether the wallet is still open is left
   * to the ledger function. `ability` is `debit` (debits) or `transact` (the default): the
   * same for users, separate pass permissions for agents.
   * @throws WalletNotFoundError (404), InsufficientPermissionsError / AgentForbiddenError (403)
   */
  async requireToMove(
    principal: Principal,
    address: string,
    ability: 'debit' | 'transact' = 'transact',
  ): Promise<WalletIdentity> {
    const identity = this.identities.get(address);
    if (!identity) return this.identities.remember(await this.require(principal, address, ability));
    const roles =
      principal.type === 'user' && identity.organizationId !== null
        ? await this.confirmed(
            principal,
            identity,
            await this.memberships.rolesOf(
              principal.id,
              identity.organizationId,
              identity.projectId,
            ),
          )
        : NO_ROLES;
    if (!walletVisible(principal, identity, roles)) throw new WalletNotFoundError();
    if (!walletAllows(principal, identity, roles, ability)) throw denied(principal);
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
    return walletAllows(principal, found.wallet, roles, ability);
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

  /** Addresses of the open wallets the caller may `ability` (their transfer requests' scope). */
  async addressesFor(principal: Principal, ability: WalletAbility): Promise<string[]> {
    if (principal.type !== 'user') return [];
    const candidates = await this.wallets.findCandidatesFor(principal.id, undefined);
    return candidates
      .filter((c) => walletAllows(principal, c.wallet, c.roles, ability))
      .map((c) => c.wallet.addressHash);
  }

  /** Any wallet by address, whoever may see it (operator paths: credits with `Admin-Access`). */
  async findAny(address: string): Promise<Wallet | null> {
    return (await this.wallets.findWithRoles(address, null))?.wallet ?? null;
  }

  /** `PUT /wallets/{addressHash}`: `entity_name` / `description`, by whoever controls it. */
  async update(
    principal: Principal,
    address: string,
    changes: WalletChangesDto,
  ): Promise<WalletRecord> {
    if (changes.entity_name === undefined && changes.description === undefined) {
      throw ValidationFailedError.at(
        { pointer: '/wallet' },
        'wallet must contain entity_name or description',
      );
    }
    await this.require(principal, address, 'control');
    const wallet = await this.wallets.update(address, {
      entityName: changes.entity_name,
      description: changes.description,
    });
    const [record] = await this.withBalances([wallet]);
    return record;
  }

  /**
   * `POST /wallets/create_entity_wallet`: a wallet for an entity the caller administers (a user
   * for themselves; an organization as its OWNER/ADMIN; a project or agent as an effective
   * project ADMIN+). A duplicate (entity, purpose) is a 409 naming the existing wallet.
   * @throws EntityNotFoundError (404), InsufficientPermissionsError (403),
   *   WalletAlreadyExistsError (409), OrganizationMismatchError / LedgerError UNKNOWN_ASSET (422)
   */
  async createEntityWallet(principal: Principal, input: EntityWalletDto): Promise<WalletRecord> {
    const entityType = input.entity_type;
    const entityId = /^\d+$/.test(input.entity_id)
      ? input.entity_id
      : input.entity_id.toLowerCase();
    const scope = await this.entityScope(principal, entityType, entityId, input.metadata);
    const entity = { entityType, entityId };
    if (!walletAllows(principal, entity, scope.roles, 'read')) {
      throw new EntityNotFoundError(entityType);
    }
    if (!walletAllows(principal, entity, scope.roles, 'control')) {
      throw new InsufficientPermissionsError(
        `Only an administrator of this ${entityType} may create its wallets.`,
      );
    }
    const currency = input.currency ?? 'CREDITS';
    this.assets.requireKnown(currency, { pointer: '/entity_wallet/currency' });
    // The contract's default for every entity type (docs/wallet.md § Decisions); wallets opened
    // by events choose their own (`operating` for organizations).
    const purpose = input.purpose ?? 'general';
    const created = await this.dataSource.transaction((manager) =>
      this.open(
        {
          entityType,
          entityId,
          entityName: input.entity_name,
          purpose,
          currency,
          description: input.description ?? '',
          metadata: input.metadata ?? {},
          organizationId: scope.organizationId,
          projectId: scope.projectId,
        },
        manager,
      ),
    );
    if (!created) {
      const existing = await this.wallets.findByEntity(entityType, entityId, purpose);
      throw new WalletAlreadyExistsError(existing?.addressHash ?? '');
    }
    return toWalletRecord(created, []);
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

  /** An agent's wallets: its project's and its own, of one entity type if given, oldest first. */
  private async agentWallets(
    principal: Principal,
    entityType: WalletEntityType | undefined,
  ): Promise<Wallet[]> {
    const scope = principal.agent;
    if (
      !scope ||
      !walletAllows(
        principal,
        { entityType: 'project', entityId: String(scope.projectId) },
        NO_ROLES,
        'read',
      )
    ) {
      throw new AgentForbiddenError('This Sentinel Pass does not grant wallets:read.');
    }
    const wallets = [
      ...(!entityType || entityType === 'project'
        ? await this.wallets.findOpenOfEntity('project', String(scope.projectId))
        : []),
      ...(!entityType || entityType === 'agent'
        ? await this.wallets.findOpenOfEntity('agent', principal.id)
        : []),
    ];
    return wallets.sort(
      (a, b) =>
        a.createdAt.getTime() - b.createdAt.getTime() || a.addressHash.localeCompare(b.addressHash),
    );
  }

  private async withBalances(wallets: Wallet[]): Promise<WalletRecord[]> {
    const balances = await this.ledger.balancesOf(wallets.map((w) => w.addressHash));
    return wallets.map((w) =>
      toWalletRecord(
        w,
        balances.filter((b) => b.walletAddress === w.addressHash),
      ),
    );
  }

  private async entityScope(
    principal: Principal,
    entityType: WalletEntityType,
    entityId: string,
    metadata: Record<string, unknown> | undefined,
  ): Promise<EntityScope> {
    const none: EntityScope = { organizationId: null, projectId: null, roles: NO_ROLES };
    const numeric = /^\d+$/.test(entityId);
    if (principal.type !== 'user') return none;
    switch (entityType) {
      case 'user':
        return none;
      case 'organization': {
        if (!numeric) return none;
        const organizationId = Number(entityId);
        const roles = await this.memberships.rolesOf(principal.id, organizationId, null);
        return { organizationId, projectId: null, roles };
      }
      case 'project': {
        const project = numeric ? await this.memberships.findProject(Number(entityId)) : null;
        if (!project || project.deleted) return none;
        const roles = await this.memberships.rolesOf(
          principal.id,
          project.organizationId,
          project.projectId,
        );
        if (walletAllows(principal, { entityType, entityId }, roles, 'control')) {
          checkProjectOrganization(metadata, project.organizationId);
        }
        return { organizationId: project.organizationId, projectId: project.projectId, roles };
      }
      case 'agent': {
        const agent = numeric ? null : await this.memberships.findAgent(entityId);
        if (!agent || agent.deleted) return none;
        const roles = await this.memberships.rolesOf(
          principal.id,
          agent.organizationId,
          agent.projectId,
        );
        return { organizationId: agent.organizationId, projectId: agent.projectId, roles };
      }
    }
  }
}

/** The 403 of a caller who sees a wallet but may not do this with it. */
function denied(principal: Principal): Error {
  return principal.type === 'agent'
    ? new AgentForbiddenError('This Sentinel Pass does not grant this on the wallet.')
    : new InsufficientPermissionsError(CONTROL_DENIED);
}

/**
 * Project wallets carry `metadata.organization_id` (docs/api.md § Wallet), and it must be right.
 */
function checkProjectOrganization(
  metadata: Record<string, unknown> | undefined,
  organizationId: number,
): void {
  const given = metadata?.['organization_id'];
  if (given === undefined || given === null) {
    throw ValidationFailedError.at(
      { pointer: '/entity_wallet/metadata/organization_id' },
      'metadata.organization_id is required for project wallets',
    );
  }
  const valid =
    (typeof given === 'number' && Number.isInteger(given)) ||
    (typeof given === 'string' && /^\d{1,10}$/.test(given));
  if (!valid) {
    throw ValidationFailedError.at(
      { pointer: '/entity_wallet/metadata/organization_id' },
      'metadata.organization_id must be an organization id (integer)',
    );
  }
  if (Number(given) !== organizationId) throw new OrganizationMismatchError();
}
