import { Injectable, type OnModuleInit } from '@nestjs/common';
import { EventBus } from '@wp/messaging';
import { MembershipsRepository } from './memberships.repository.js';

/** Keeps the membership read model in line with org (`org.membership.changed`). */
@Injectable()
export class MembershipsHandlers implements OnModuleInit {
  constructor(
    private readonly bus: EventBus,
    private readonly memberships: MembershipsRepository,
  ) {}

  onModuleInit(): void {
    this.bus.on('org.membership.changed', 'memberships', async (event, manager) => {
      if (event.payload.projectId === null) {
        await this.memberships.applyOrganizationChange(event.payload, manager);
      }
    });
  }
}
