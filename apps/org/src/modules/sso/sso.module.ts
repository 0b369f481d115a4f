import { Module } from '@nestjs/common';
import { DnsTxtResolver } from './dns-txt-resolver.js';
import { OrganizationSsoController } from './sso.controller.js';
import { SsoDomainsRepository } from './sso-domains.repository.js';
import { SsoDomainsService } from './sso-domains.service.js';
import { SsoProvisioningHandler } from './sso-provisioning.handler.js';
import { SsoSettingsService } from './sso-settings.service.js';

/**
 * Organization single sign-on, org's half (docs/org.md § Single sign-on for an organization):
 * e-mail domains verified by DNS, SSO settings, the state auth replicates, and just-in-time
 * membership. The connection itself is auth's (docs/decisions.md § Organization SSO).
 */
@Module({
  controllers: [OrganizationSsoController],
  providers: [
    DnsTxtResolver,
    SsoDomainsRepository,
    SsoDomainsService,
    SsoSettingsService,
    SsoProvisioningHandler,
  ],
})
export class SsoModule {}
