import { Injectable, type OnModuleInit } from '@nestjs/common';
import { EventBus } from '@wp/messaging';
import { ProjectsRepository } from '../tenants/projects.repository.js';

const MAX_INT4 = 2_147_483_647;

/**
 * `has_wallet` of projects from `wallet.wallet.created`
 * (docs/architecture.md § Data ownership and events): a wallet with entity type `project` marks
 * that project. Idempotent (processed-event record; setting true twice changes nothing); a wallet
 * for a project deleted meanwhile is ignored.
 */
@Injectable()
export class ProjectsHandlers implements OnModuleInit {
  constructor(
    private readonly bus: EventBus,
    private readonly projects: ProjectsRepository,
  ) {}

  onModuleInit(): void {
    this.bus.on('wallet.wallet.created', 'project_wallets', async (event) => {
      const { entityType, entityId } = event.payload;
      const id = Number(entityId);
      if (entityType !== 'project' || !/^\d{1,10}$/.test(entityId) || id > MAX_INT4) return;
      await this.projects.markHasWallet(id);
    });
  }
}
