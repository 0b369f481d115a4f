import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { document, type Document, IntIdPipe, NoStore, type Resource, UuidPipe } from '@wp/http';
import { CurrentPrincipal, type Principal } from '@wp/security';
import { toApiKeyResource, type ApiKeyAttributes } from './api-key.serializer.js';
import { ApiKeysService } from './api-keys.service.js';
import { CreateApiKeyDto, UpdateApiKeyDto } from './dto/api-key.dto.js';

/** Project API keys (docs/api.md § Projects, P = /organizations/{organizationId}/projects). */
@Controller('organizations/:organizationId')
export class ApiKeysController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  /**
   * `POST P/{projectId}/api_keys` → 201 with the `apiKey` and, once, the secret in clear at
   * `meta.secretKey`.
   */
  @Post('projects/:projectId/api_keys')
  @NoStore()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create an API key pair for a project' })
  async create(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('projectId', IntIdPipe) projectId: number,
    @Body() dto: CreateApiKeyDto,
  ): Promise<Document<Resource<ApiKeyAttributes>>> {
    const { note, expires_at } = dto.data.attributes;
    const { key, secretKey } = await this.apiKeys.create(principal, organizationId, projectId, {
      note,
      expiresAt: expires_at,
    });
    return document(toApiKeyResource(key), { meta: { secretKey } });
  }

  /** `PATCH P/{projectId}/api_keys/{apiKeyId}` (`data.attributes.note`) → 200. */
  @Patch('projects/:projectId/api_keys/:apiKeyId')
  @ApiOperation({ summary: 'Change the note of an API key' })
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('projectId', IntIdPipe) projectId: number,
    @Param('apiKeyId', UuidPipe) apiKeyId: string,
    @Body() dto: UpdateApiKeyDto,
  ): Promise<Document<Resource<ApiKeyAttributes>>> {
    const key = await this.apiKeys.updateNote(
      principal,
      organizationId,
      projectId,
      apiKeyId,
      dto.data.attributes.note,
    );
    return document(toApiKeyResource(key));
  }

  /** `DELETE P/{projectId}/api_keys/{apiKeyId}` → 204. */
  @Delete('projects/:projectId/api_keys/:apiKeyId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete an API key' })
  async delete(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('projectId', IntIdPipe) projectId: number,
    @Param('apiKeyId', UuidPipe) apiKeyId: string,
  ): Promise<void> {
    await this.apiKeys.delete(principal, organizationId, projectId, apiKeyId);
  }

  /** `GET /organizations/{id}/api_keys`: `{data: [apiKey]}` across the projects (ADMIN, OWNER). */
  @Get('api_keys')
  @ApiOperation({ summary: "List the API keys of an organization's projects" })
  async listForOrganization(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
  ): Promise<Document<Resource<ApiKeyAttributes>[]>> {
    const keys = await this.apiKeys.listForOrganization(principal, organizationId);
    return document(keys.map((k) => toApiKeyResource(k)));
  }
}
