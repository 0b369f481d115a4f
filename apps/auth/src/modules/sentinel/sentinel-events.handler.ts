import { Injectable, type OnModuleInit } from '@nestjs/common';
import { EventBus } from '@wp/messaging';
import { SentinelPassRepository } from './sentinel-pass.repository.js';

/**
 * Consumers of the Sentinel Pass read models (ARCHITECTURE § 2): `org.sentinel_pass.changed`
 * (credentials; newer versions only), `org.membership.changed` (who may read activity;
 * newer versions only), and the activity of every service (`auth|org|wallet.activity.recorded`),
 * stored idempotently by entry id.
 */
@Injectable()
export class SentinelEventsHandler implements OnModuleInit {
  constructor(
    private readonly bus: EventBus,
    private readonly passes: SentinelPassRepository,
  ) {}

  onModuleInit(): void {
    this.bus.on('org.sentinel_pass.changed', 'sentinel-passes', (event, manager) =>
      this.passes.applyPassChange(manager, event.payload),
    );
    this.bus.on('org.membership.changed', 'sentinel-memberships', (event, manager) =>
      this.passes.applyMembershipChange(manager, event.payload),
    );
    for (const subject of [
      'auth.activity.recorded',
      'org.activity.recorded',
      'wallet.activity.recorded',
    ] as const) {
      const name = `activity-${subject.slice(0, subject.indexOf('.'))}`;
      this.bus.on(subject, name, async (event, manager) => {
        await this.passes.insertActivity(manager, event.payload.entries);
      });
    }
  }
}
