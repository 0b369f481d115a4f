import { Injectable, type OnModuleInit } from '@nestjs/common';
import { EventBus } from '@wp/messaging';
import { applyTenantVersion, TxHost } from '@wp/persistence';
import { WalletsRepository } from './wallets.repository.js';
import { WalletsService } from './wallets.service.js';

/**
 * Wallets opened and closed by events (docs/architecture.md § Data ownership and events): a
 * personal wallet when an account is activated, an `operating` wallet when an organization is
 * created, each exactly once whatever the redeliveries (processed-event record + unique (entity,
 * purpose)). When an organization, project or agent is deleted its wallets are closed: they keep
 * their history and balances (the ledger never forgets money) but move nothing any more.
 */
@Injectable()
export class WalletsHandlers implements OnModuleInit {
  constructor(
    private readonly txHost: TxHost,
    private readonly bus: EventBus,
    private readonly wallets: WalletsService,
    private readonly repository: WalletsRepository,
  ) {}

  onModuleInit(): void {
    this.bus.on('org.organization.created', 'organization_wallet', async (event) => {
      const { organizationId, name } = event.payload;
      await this.wallets.open({
        entityType: 'organization',
        entityId: String(organizationId),
        entityName: name,
        purpose: 'operating',
        currency: 'CREDITS',
        metadata: {},
        organizationId,
      });
    });
    this.bus.on('auth.user.activated', 'personal_wallet', async (event) => {
      const { userId, email, phone } = event.payload;
      await this.wallets.open({
        entityType: 'user',
        entityId: userId,
        entityName: email ?? phone ?? userId,
        purpose: 'general',
        currency: 'CREDITS',
        metadata: {},
      });
    });
    this.bus.on('org.organization.deleted', 'organization_wallets_closing', (event) =>
      this.repository.closeOfOrganization(event.payload.organizationId),
    );
    // The deletion's organization permission version is applied here, with the closing, not
    // by the membership read model: until the wallets are closed, movements out of them are
    // decided by org's answer (`projectDeleted`), not by the roles this process holds.
    this.bus.on('org.project.deleted', 'project_wallets_closing', async (event) => {
      const { organizationId, projectId, organizationVersion } = event.payload;
      await this.repository.closeOfProject(projectId);
      if (organizationVersion !== undefined) {
        await applyTenantVersion(this.txHost.tx, organizationId, organizationVersion);
      }
    });
    this.bus.on('org.sentinel_pass.changed', 'agent_wallets_closing', async (event) => {
      if (event.payload.deleted) await this.repository.closeOfAgent(event.payload.passId);
    });
  }
}
