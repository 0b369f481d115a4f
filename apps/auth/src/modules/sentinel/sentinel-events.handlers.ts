import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { EventBus } from '@wp/messaging';
import { applyTenantVersion, TxHost } from '@wp/persistence';
import { agentSessionId, RevocationList } from '@wp/security';
import { AUTH_CONFIG, type AuthConfig } from '../../config/auth.config.js';
import { SentinelPassRepository } from './sentinel-pass.repository.js';

/**
 * Consumers of the Sentinel Pass read models (docs/architecture.md § Data ownership and events):
 * `org.sentinel_pass.changed` (credentials; newer versions only; a revocation, deletion or key
 * rotation deny-lists the `sid` of every agent token issued before it, in every service),
 * `org.membership.changed` (who may read activity; newer versions only; the organization's
 * permission version it carries, see `PermissionFreshness`), `org.project.deleted` (the
 * version the deletion took), and the activity of every
 * service (`auth|org|wallet.activity.recorded`), stored idempotently by entry id.
 */
@Injectable()
export class SentinelEventsHandlers implements OnModuleInit {
  constructor(
    private readonly txHost: TxHost,
    private readonly bus: EventBus,
    private readonly passes: SentinelPassRepository,
    private readonly revocations: RevocationList,
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
  ) {}

  onModuleInit(): void {
    this.bus.on('org.sentinel_pass.changed', 'sentinel-passes', async (event) => {
      const endedEpoch = await this.passes.applyPassChange(event.payload);
      // Inside the transaction: a Redis failure rolls back and the event is redelivered.
      if (endedEpoch !== null) {
        await this.revocations.revokeSession(
          agentSessionId(event.payload.passId, endedEpoch),
          this.config.ACCESS_TOKEN_TTL_SECONDS,
        );
      }
    });
    this.bus.on('org.membership.changed', 'sentinel-memberships', async (event) => {
      await this.passes.applyMembershipChange(event.payload);
      if (event.payload.organizationVersion !== undefined) {
        await applyTenantVersion(
          this.txHost.tx,
          event.payload.organizationId,
          event.payload.organizationVersion,
        );
      }
    });
    // A deleted project takes an organization permission version too; auth holds nothing of
    // the project to change (its passes' deletions arrive as `org.sentinel_pass.changed`), so
    // only the version is recorded, keeping the run of applied versions unbroken.
    this.bus.on('org.project.deleted', 'sentinel-project-deletions', async (event) => {
      const { organizationId, organizationVersion } = event.payload;
      if (organizationVersion !== undefined) {
        await applyTenantVersion(this.txHost.tx, organizationId, organizationVersion);
      }
    });
    for (const subject of [
      'auth.activity.recorded',
      'org.activity.recorded',
      'wallet.activity.recorded',
    ] as const) {
      const name = `activity-${subject.slice(0, subject.indexOf('.'))}`;
      this.bus.on(subject, name, async (event) => {
        await this.passes.insertActivity(event.payload.entries);
      });
    }
  }
}
