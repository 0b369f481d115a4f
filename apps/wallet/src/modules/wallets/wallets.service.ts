import { TxHost } from '@wp/persistence';
import { Injectable } from '@nestjs/common';
import { ValidationFailedError } from '@wp/http';
import { Outbox } from '@wp/messaging';
import { AgentForbiddenError, type Principal } from '@wp/security';
import { AssetsService } from '../assets/assets.service.js';
import {
  MembershipsRepository,
  NO_ROLES,
  type MembershipRoles,
} from '../memberships/memberships.repository.js';
import type { EntityWalletDto } from './dto/create-entity-wallet.dto.js';
import type { WalletChangesDto } from './dto/update-wallet.dto.js';
import type { Wallet, WalletEntityType } from './wallet.entity.js';
import { WalletAccess } from './wallet-access.js';
import { WalletBalances } from './wallet-balances.js';
import { walletAllows } from './wallet-policy.js';
import { toWalletRecord, type WalletRecord } from './wallet.serializer.js';
import {
  EntityNotFoundError,
  InsufficientPermissionsError,
  OrganizationMismatchError,
  WalletAlreadyExistsError,
} from './wallets.errors.js';
import { WalletsRepository, type NewWallet } from './wallets.repository.js';

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
    private readonly balances: WalletBalances,
    private readonly assets: AssetsService,
    private readonly outbox: Outbox,
    private readonly txHost: TxHost,
    private readonly access: WalletAccess,
  ) {}

  /**
   * Opens a wallet exactly once per (entity, purpose) and announces it with
   * `wallet.wallet.created`, in the caller's transaction.
   * @returns the new wallet, or null when it already existed
   */
  async open(wallet: NewWallet): Promise<Wallet | null> {
    const created = await this.wallets.insertIfAbsent(wallet);
    if (created) {
      await this.outbox.enqueue('wallet.wallet.created', {
        addressHash: created.addressHash,
        entityType: created.entityType,
        entityId: created.entityId,
        purpose: created.purpose,
        currency: created.currency,
        // The tenant of a tenant's wallet (webhooks deliver `wallet.created` to it).
        ...(created.organizationId !== null
          ? { organizationId: created.organizationId, projectId: created.projectId }
          : {}),
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
      visible = await this.access.walletsFor(principal, 'read', entityType);
    }
    return this.withBalances(visible);
  }

  /** `GET /wallets/{addressHash}`: one wallet the caller may read, with balances. */
  async get(principal: Principal, address: string): Promise<WalletRecord> {
    const wallet = await this.access.require(principal, address, 'read');
    const [record] = await this.withBalances([wallet]);
    return record;
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
    await this.access.require(principal, address, 'control');
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
    const created = await this.txHost.withTransaction(() =>
      this.open({
        entityType,
        entityId,
        entityName: input.entity_name,
        purpose,
        currency,
        description: input.description ?? '',
        metadata: input.metadata ?? {},
        organizationId: scope.organizationId,
        projectId: scope.projectId,
      }),
    );
    if (!created) {
      const existing = await this.wallets.findByEntity(entityType, entityId, purpose);
      throw new WalletAlreadyExistsError(existing?.addressHash ?? '');
    }
    return toWalletRecord(created, []);
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
    const balances = await this.balances.balancesOf(wallets.map((w) => w.addressHash));
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
        const roles = await this.access.rolesOf(principal, organizationId, null);
        return { organizationId, projectId: null, roles };
      }
      case 'project': {
        const project = numeric ? await this.memberships.findProject(Number(entityId)) : null;
        if (!project || project.deleted) return none;
        const roles = await this.access.rolesOf(
          principal,
          project.organizationId,
          project.projectId,
        );
        // Deleted at org before this read model heard of it: as deleted here.
        if (roles.projectDeleted) return none;
        if (walletAllows(principal, { entityType, entityId }, roles, 'control')) {
          checkProjectOrganization(metadata, project.organizationId);
        }
        return { organizationId: project.organizationId, projectId: project.projectId, roles };
      }
      case 'agent': {
        const agent = numeric ? null : await this.memberships.findAgent(entityId);
        if (!agent || agent.deleted) return none;
        const roles = await this.access.rolesOf(principal, agent.organizationId, agent.projectId);
        if (roles.projectDeleted) return none;
        return { organizationId: agent.organizationId, projectId: agent.projectId, roles };
      }
    }
  }
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
