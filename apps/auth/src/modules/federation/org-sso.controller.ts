import { Body, Controller, Get, Param, Put, Query } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { parseEmail } from '@wp/identity';
import {
  CurrentRequestMeta,
  IntIdPipe,
  NoStore,
  Public,
  ValidationFailedError,
  type RequestMeta,
} from '@wp/http';
import { CurrentPrincipal, type Principal } from '@wp/security';
import type { ConnectionView } from './connections.service.js';
import { PutOrgConnectionDto } from './dto/org-connection.dto.js';
import { OrgConnectionsService } from './org-connections.service.js';
import { OrgSsoState } from './org-sso-state.js';

export class HomeRealmAttributes {
  @ApiProperty({ example: 'example.com' })
  domain!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The `connection` parameter of `/oauth/authorize`; null: none is enabled.',
  })
  connection!: string | null;

  @ApiProperty({ description: 'Password sign-in is refused (403 `SSO_REQUIRED`).' })
  ssoRequired!: boolean;
}

export class HomeRealmData {
  @ApiProperty({ enum: ['home_realm'] })
  type!: 'home_realm';

  @ApiProperty({ description: 'The e-mail domain.' })
  id!: string;

  @ApiProperty({ type: () => HomeRealmAttributes })
  attributes!: HomeRealmAttributes;
}

/** `GET /oauth/discovery`: `data` null when no organization verified the domain. */
export class HomeRealmResource {
  @ApiProperty({ type: () => HomeRealmData, nullable: true })
  data!: HomeRealmData | null;
}

/**
 * Organization single sign-on on {auth_url} (docs/auth.md § Organization single sign-on):
 * home-realm discovery for a sign-in page, and an organization OWNER's own connection.
 */
@ApiTags('sso')
@Controller('oauth')
export class OrgSsoController {
  constructor(
    private readonly state: OrgSsoState,
    private readonly connections: OrgConnectionsService,
  ) {}

  /**
   * `GET /oauth/discovery?email=…` (Api-Key, no user): 200 the realm of the address's domain,
   * or `data: null`; 400 `VALIDATION_FAILED` when `email` is not an e-mail address.
   */
  @Get('discovery')
  @Public()
  @NoStore()
  @ApiOperation({ summary: 'Find the connection for an e-mail address (home-realm discovery)' })
  @ApiQuery({ name: 'email', schema: { type: 'string', minLength: 3, maxLength: 320 } })
  @ApiOkResponse({ type: HomeRealmResource })
  async discovery(@Query('email') email: unknown): Promise<HomeRealmResource> {
    if (typeof email !== 'string' || email.length > 320 || !parseEmail(email)) {
      throw new ValidationFailedError([
        { source: { parameter: 'email' }, detail: 'email must be an e-mail address.' },
      ]);
    }
    const realm = await this.state.realmOf(email);
    if (!realm) return { data: null };
    return {
      data: {
        type: 'home_realm',
        id: realm.domain,
        attributes: {
          domain: realm.domain,
          connection: realm.connection,
          ssoRequired: realm.ssoRequired,
        },
      },
    };
  }

  /** 200; 403 a member but not an OWNER; 404 not a member (or no connection). */
  @Get('organizations/:organizationId/connection')
  @ApiBearerAuth()
  @ApiOperation({ summary: "Get an organization's own OIDC connection (OWNER)" })
  async get(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
  ): Promise<{ data: ConnectionView }> {
    return { data: await this.connections.get(principal, organizationId) };
  }

  /**
   * 200 created or replaced (never the secret); 400; 403 a member but not an OWNER; 404 not a
   *   member of the organization;
   * 409 `CONNECTION_SLUG_TAKEN`.
   */
  @Put('organizations/:organizationId/connection')
  @ApiBearerAuth()
  @ApiOperation({ summary: "Set an organization's own OIDC connection (OWNER)" })
  async put(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Body() dto: PutOrgConnectionDto,
    @CurrentRequestMeta() meta: RequestMeta,
  ): Promise<{ data: ConnectionView }> {
    return { data: (await this.connections.put(principal, organizationId, dto, meta)).view };
  }
}
