import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { document, IntIdPipe, UuidPipe, type Document, type Resource } from '@wp/http';
import { CurrentPrincipal, type Principal } from '@wp/security';
import { CreateLlmApiKeyDto } from './dto/create-llm-api-key.dto.js';
import { toLlmApiKeyResource, type LlmApiKeyAttributes } from './llm-api-key.serializer.js';
import { LlmKeysService } from './llm-keys.service.js';

/**
 * LLM API keys (docs/api.md § Projects `P/{id}/llm_api_keys`, docs/api.md § Organizations
 * `llm_api_keys`).
 */
@Controller('organizations/:organizationId')
export class LlmKeysController {
  constructor(private readonly llmKeys: LlmKeysService) {}

  /** `POST P/{projectId}/llm_api_keys` → 201, the key masked. */
  @Post('projects/:projectId/llm_api_keys')
  @HttpCode(201)
  @ApiOperation({ summary: 'Add an LLM provider key to a project' })
  async create(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('projectId', IntIdPipe) projectId: number,
    @Body() dto: CreateLlmApiKeyDto,
  ): Promise<Document<Resource<LlmApiKeyAttributes>>> {
    const key = await this.llmKeys.create(
      principal,
      organizationId,
      projectId,
      dto.data.attributes,
    );
    return document(toLlmApiKeyResource(key));
  }

  /** `DELETE P/{projectId}/llm_api_keys/{apiKeyId}` → 204. */
  @Delete('projects/:projectId/llm_api_keys/:apiKeyId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete an LLM provider key' })
  // jscpd:ignore-start: each route's decorators and parameters are its HTTP contract; the delete routes of API keys and LLM keys stay written out.
  async delete(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('projectId', IntIdPipe) projectId: number,
    @Param('apiKeyId', UuidPipe) apiKeyId: string,
  ): Promise<void> {
    // jscpd:ignore-end
    await this.llmKeys.delete(principal, organizationId, projectId, apiKeyId);
  }

  /** `GET /organizations/{id}/llm_api_keys`: across the projects, masked (ADMIN, OWNER). */
  @Get('llm_api_keys')
  @ApiOperation({ summary: "List the LLM keys of an organization's projects" })
  async listForOrganization(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
  ): Promise<Document<Resource<LlmApiKeyAttributes>[]>> {
    const keys = await this.llmKeys.listForOrganization(principal, organizationId);
    return document(keys.map(toLlmApiKeyResource));
  }
}
