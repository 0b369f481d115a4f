import { Injectable } from '@nestjs/common';
import { TxHost } from '@wp/persistence';
import type { Principal } from '@wp/security';
import { AccessService } from '../access/access.service.js';
import { AuditTrail } from '../audit/audit-trail.js';
import type { SsoSettingsAttributesDto } from './dto/sso.dto.js';
import { MANAGE_SSO, SsoDomainsService } from './sso-domains.service.js';
import { SsoDomainsRepository } from './sso-domains.repository.js';
import { settingsResource, type SsoSettingsResource } from './sso-domains.serializer.js';

/**
 * An organization's SSO settings (docs/org.md § Single sign-on for an organization):
 * `ssoRequired` (accounts at its verified domains must sign in through its connection; auth
 * enforces it from `org.organization_sso.changed`) and `defaultRole` (of just-in-time members,
 * MEMBER unless set; never OWNER). OWNER only; a change is audited
 * (`organization.sso_settings_changed`) in its transaction.
 */
@Injectable()
export class SsoSettingsService {
  constructor(
    private readonly txHost: TxHost,
    private readonly access: AccessService,
    private readonly domains: SsoDomainsRepository,
    private readonly state: SsoDomainsService,
    private readonly audit: AuditTrail,
  ) {}

  /** @throws 403/404 */
  async get(principal: Principal, organizationId: number): Promise<SsoSettingsResource> {
    await this.access.organizationWith(principal, organizationId, MANAGE_SSO);
    return settingsResource(organizationId, await this.domains.settings(organizationId));
  }

  /** Absent fields stay as they are. @throws 400; 403/404 */
  async update(
    principal: Principal,
    organizationId: number,
    changes: SsoSettingsAttributesDto,
  ): Promise<SsoSettingsResource> {
    return this.txHost.withTransaction(async () => {
      const access = await this.access.organizationWith(principal, organizationId, MANAGE_SSO, {
        lock: true,
      });
      const before = await this.domains.settings(organizationId);
      const after = {
        ssoRequired: changes.ssoRequired ?? before.ssoRequired,
        defaultRole: changes.defaultRole ?? before.defaultRole,
      };
      if (after.ssoRequired !== before.ssoRequired || after.defaultRole !== before.defaultRole) {
        await this.domains.saveSettings(organizationId, after);
        await this.audit.record(principal, {
          organizationId,
          action: 'organization.sso_settings_changed',
          target: {
            type: 'organization',
            id: String(organizationId),
            label: access.organization.name,
          },
          details: { ssoRequired: after.ssoRequired, defaultRole: after.defaultRole },
        });
        if (after.ssoRequired !== before.ssoRequired) await this.state.publish(organizationId);
      }
      return settingsResource(organizationId, after);
    });
  }
}
