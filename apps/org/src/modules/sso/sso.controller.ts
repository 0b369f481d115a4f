import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { IntIdPipe, UuidPipe } from '@wp/http';
import { CurrentPrincipal, type Principal } from '@wp/security';
import { AddDomainDto, UpdateSsoSettingsDto } from './dto/sso.dto.js';
import { SsoDomainsService } from './sso-domains.service.js';
import {
  DomainListResource,
  DomainResource,
  SsoSettingsResource,
} from './sso-domains.serializer.js';
import { SsoSettingsService } from './sso-settings.service.js';

/**
 * An organization's e-mail domains and SSO settings on {org_url} (docs/org.md § Single sign-on
 * for an organization). OWNER only: another role gets 403, a non-member 404.
 */
@ApiTags('sso')
@ApiBearerAuth()
@Controller('organizations')
export class OrganizationSsoController {
  constructor(
    private readonly domains: SsoDomainsService,
    private readonly settings: SsoSettingsService,
  ) {}

  /** 201 with the TXT record to publish; 400; 403; 404; 409 `DOMAIN_EXISTS`. */
  @Post(':organizationId/domains')
  @ApiOperation({ summary: 'Add an e-mail domain to an organization' })
  @ApiCreatedResponse({ type: DomainResource })
  async add(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Body() dto: AddDomainDto,
  ): Promise<DomainResource> {
    return { data: await this.domains.add(principal, organizationId, dto.data.attributes.domain) };
  }

  @Get(':organizationId/domains')
  @ApiOperation({ summary: "List an organization's e-mail domains" })
  @ApiOkResponse({ type: DomainListResource })
  list(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
  ): Promise<DomainListResource> {
    return this.domains.list(principal, organizationId);
  }

  /**
   * 200 verified; 403; 404; 409 `DOMAIN_TAKEN` (another organization verified it);
   * 422 `DOMAIN_NOT_VERIFIED` (no matching TXT record); 503 `DNS_UNAVAILABLE`.
   */
  @Post(':organizationId/domains/:domainId/verify')
  @HttpCode(200)
  @ApiOperation({ summary: 'Verify an e-mail domain by its DNS TXT record' })
  @ApiOkResponse({ type: DomainResource })
  async verify(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('domainId', UuidPipe) domainId: string,
  ): Promise<DomainResource> {
    return { data: await this.domains.verify(principal, organizationId, domainId) };
  }

  /** 204; 403; 404. */
  @Delete(':organizationId/domains/:domainId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove an e-mail domain' })
  @ApiNoContentResponse()
  async remove(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('domainId', UuidPipe) domainId: string,
  ): Promise<void> {
    await this.domains.remove(principal, organizationId, domainId);
  }

  @Get(':organizationId/sso_settings')
  @ApiOperation({ summary: "Get an organization's SSO settings" })
  @ApiOkResponse({ type: SsoSettingsResource })
  getSettings(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
  ): Promise<SsoSettingsResource> {
    return this.settings.get(principal, organizationId);
  }

  /** 200; 400; 403; 404. */
  @Patch(':organizationId/sso_settings')
  @ApiOperation({ summary: "Change an organization's SSO settings" })
  @ApiOkResponse({ type: SsoSettingsResource })
  updateSettings(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Body() dto: UpdateSsoSettingsDto,
  ): Promise<SsoSettingsResource> {
    return this.settings.update(principal, organizationId, dto.data.attributes);
  }
}
