import { Body, Controller, Get, Param, Patch, Post, Put, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentRequestMeta, Public, UuidPipe, type RequestMeta } from '@wp/http';
import { AdminAccessGuard } from '@wp/security';
import { ApplicationsRedirects } from './applications-redirects.js';
import { ConnectionsService, type ConnectionView } from './connections.service.js';
import { CreateConnectionDto, RedirectUrisDto, UpdateConnectionDto } from './dto/connection.dto.js';

/**
 * Operator routes (Api-Key + `Admin-Access`; docs/auth.md § Sign-in with an OpenID provider):
 * the platform's OIDC connections and the redirect URIs of client applications.
 */
@ApiTags('sso')
@Controller('oauth')
@Public()
@UseGuards(AdminAccessGuard)
export class ConnectionsController {
  constructor(
    private readonly connections: ConnectionsService,
    private readonly redirects: ApplicationsRedirects,
  ) {}

  /** 201 the connection (no secret); 400; 403 `ADMIN_ACCESS_REQUIRED`; 409 `CONNECTION_SLUG_TAKEN`. */
  @Post('connections')
  @ApiOperation({ summary: 'Create an OIDC connection' })
  async create(
    @Body() dto: CreateConnectionDto,
    @CurrentRequestMeta() meta: RequestMeta,
  ): Promise<{ data: ConnectionView }> {
    return { data: await this.connections.create(dto, { type: 'admin_access', meta }) };
  }

  @Get('connections')
  @ApiOperation({ summary: 'List OIDC connections' })
  async list(): Promise<{ data: ConnectionView[] }> {
    return { data: await this.connections.list() };
  }

  /** 200; 400; 403; 404 `NOT_FOUND`. */
  @Patch('connections/:connectionId')
  @ApiOperation({ summary: 'Change or disable an OIDC connection' })
  async update(
    @Param('connectionId', UuidPipe) id: string,
    @Body() dto: UpdateConnectionDto,
    @CurrentRequestMeta() meta: RequestMeta,
  ): Promise<{ data: ConnectionView }> {
    return { data: await this.connections.update(id, dto, { type: 'admin_access', meta }) };
  }

  /** 200 the new allow-list; 400; 403; 404 unknown or revoked application. */
  @Put('applications/:appId/redirect_uris')
  @ApiOperation({ summary: "Set a client application's redirect URIs" })
  async setRedirectUris(
    @Param('appId', UuidPipe) appId: string,
    @Body() dto: RedirectUrisDto,
    @CurrentRequestMeta() meta: RequestMeta,
  ): Promise<{ data: { id: string; redirectUris: string[] } }> {
    return {
      data: await this.redirects.set(appId, dto.redirectUris, { type: 'admin_access', meta }),
    };
  }
}
