import { Injectable, type OnModuleInit } from '@nestjs/common';
import { EventBus } from '@wp/messaging';
import { WalletsService } from './wallets.service.js';

/**
 * Wallets opened by events (ARCHITECTURE § 2): a personal wallet when an account is activated,
 * an `operating` wallet when an organization is created. Each exactly once, whatever the
 * redeliveries (processed-event record + unique (entity, purpose)).
 */
@Injectable()
export class WalletsHandlers implements OnModuleInit {
  constructor(
    private readonly bus: EventBus,
    private readonly wallets: WalletsService,
  ) {}

  onModuleInit(): void {
    this.bus.on('org.organization.created', 'organization_wallet', async (event, manager) => {
      const { organizationId, name } = event.payload;
      await this.wallets.open(
        {
          entityType: 'organization',
          entityId: String(organizationId),
          entityName: name,
          purpose: 'operating',
          currency: 'CREDITS',
          metadata: {},
        },
        manager,
      );
    });
    this.bus.on('auth.user.activated', 'personal_wallet', async (event, manager) => {
      const { userId, email, phone } = event.payload;
      await this.wallets.open(
        {
          entityType: 'user',
          entityId: userId,
          entityName: email ?? phone ?? userId,
          purpose: 'general',
          currency: 'CREDITS',
          metadata: {},
        },
        manager,
      );
    });
  }
}
