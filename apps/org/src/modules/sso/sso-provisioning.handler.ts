import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { ROLES, type EventPayload, type Role } from '@wp/contracts';
import { EventBus } from '@wp/messaging';
import { AuditTrail } from '../audit/audit-trail.js';
import { OrganizationMembersRepository } from '../memberships/organization-members.repository.js';
import { OrganizationMemberships } from '../memberships/organization-memberships.js';
import { SsoDomainsRepository } from './sso-domains.repository.js';

/**
 * Just-in-time provisioning (docs/org.md § Single sign-on for an organization): on
 * `auth.sso.signed_in` (a sign-in through the organization's own connection) the person becomes
 * a member with the organization's `defaultRole` unless they already are one — any membership,
 * whatever its role, is left as it is. Idempotent: the bus's processed-event row, then the
 * membership check under the organization row lock. Audited as `member.added`
 * (`details.via: sso`), the person as actor. Removal stays a platform action.
 */
@Injectable()
export class SsoProvisioningHandler implements OnModuleInit {
  private readonly logger = new Logger('SsoProvisioning');

  constructor(
    private readonly bus: EventBus,
    private readonly members: OrganizationMembersRepository,
    private readonly memberships: OrganizationMemberships,
    private readonly settings: SsoDomainsRepository,
    private readonly audit: AuditTrail,
  ) {}

  onModuleInit(): void {
    this.bus.on('auth.sso.signed_in', 'sso_provisioning', (event) => this.provision(event.payload));
  }

  async provision(event: EventPayload<'auth.sso.signed_in'>): Promise<void> {
    const { organizationId, userId } = event;
    await this.members.lockOrganization(organizationId);
    if (await this.members.find(organizationId, userId)) return;
    const { defaultRole } = await this.settings.settings(organizationId);
    const role: Role = (ROLES as readonly string[]).includes(defaultRole)
      ? (defaultRole as Role)
      : 'MEMBER';
    const exists = await this.settings.organizationExists(organizationId);
    if (!exists) return; // deleted since the sign-in: nothing to join
    await this.memberships.add({ organizationId, userId }, role);
    // The directory's address when it already has the account (its events may come later).
    const email = (await this.members.findMember(organizationId, userId))?.email ?? null;
    await this.audit.recordAs(
      { type: 'user', id: userId, email },
      {
        organizationId,
        action: 'member.added',
        target: { type: 'user', id: userId, label: email },
        details: { role, via: 'sso', connection: event.connection },
      },
    );
    this.logger.log(`user ${userId} joined organization ${organizationId} as ${role} (SSO)`);
  }
}
