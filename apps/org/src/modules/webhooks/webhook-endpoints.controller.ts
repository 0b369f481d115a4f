import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntIdPipe, NoStore, UuidPipe } from '@wp/http';
import { CurrentPrincipal, type Principal } from '@wp/security';
import { CreateEndpointDto, UpdateEndpointDto } from './dto/endpoint-body.dto.js';
import { WebhookEndpointsService, type EndpointWithSecret } from './webhook-endpoints.service.js';
import {
  toEndpointResource,
  WebhookEndpointDocument,
  WebhookEndpointList,
  WebhookEndpointWithSecretDocument,
} from './webhook.serializer.js';

const E = 'webhook_endpoints';

/**
 * Webhook endpoints of an organization on {org_url} (docs/org.md § Webhooks, API): OWNER and
 * ADMIN. 404 for a non-member and for another organization's endpoint; 403 for MEMBER and
 * VIEWER; 400 for an invalid body or a URL the SSRF rules refuse.
 */
@ApiTags('webhooks')
@ApiBearerAuth()
@Controller('organizations/:organizationId')
export class WebhookEndpointsController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  /** `POST …/webhook_endpoints` → 201 with the secret in `meta.secret` (shown only here). */
  @Post(E)
  @NoStore()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a webhook endpoint' })
  async create(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Body() dto: CreateEndpointDto,
  ): Promise<WebhookEndpointWithSecretDocument> {
    return withSecret(await this.endpoints.create(principal, organizationId, dto.data.attributes));
  }

  /** `GET …/webhook_endpoints` → 200, oldest first, with pending and failed counts. */
  @Get(E)
  @ApiOperation({ summary: "List an organization's webhook endpoints" })
  async list(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
  ): Promise<WebhookEndpointList> {
    const endpoints = await this.endpoints.list(principal, organizationId);
    return { data: endpoints.map(toEndpointResource) };
  }

  /** `GET …/webhook_endpoints/{endpointId}` → 200. */
  @Get(`${E}/:endpointId`)
  @ApiOperation({ summary: 'Get a webhook endpoint' })
  async get(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('endpointId', UuidPipe) endpointId: string,
  ): Promise<WebhookEndpointDocument> {
    return {
      data: toEndpointResource(await this.endpoints.get(principal, organizationId, endpointId)),
    };
  }

  /** `PATCH …/webhook_endpoints/{endpointId}` → 200 (url, description, eventTypes, enabled). */
  @Patch(`${E}/:endpointId`)
  @ApiOperation({ summary: 'Change a webhook endpoint' })
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('endpointId', UuidPipe) endpointId: string,
    @Body() dto: UpdateEndpointDto,
  ): Promise<WebhookEndpointDocument> {
    const endpoint = await this.endpoints.update(
      principal,
      organizationId,
      endpointId,
      dto.data.attributes,
    );
    return { data: toEndpointResource(endpoint) };
  }

  /** `DELETE …/webhook_endpoints/{endpointId}` → 204, with its deliveries. */
  @Delete(`${E}/:endpointId`)
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a webhook endpoint' })
  async delete(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('endpointId', UuidPipe) endpointId: string,
  ): Promise<void> {
    await this.endpoints.delete(principal, organizationId, endpointId);
  }

  /**
   * `POST …/webhook_endpoints/{endpointId}/rotate_secret` → 200 with the new secret in
   * `meta.secret`; the previous one keeps signing for `WEBHOOK_SECRET_OVERLAP_SECONDS`.
   */
  @Post(`${E}/:endpointId/rotate_secret`)
  @NoStore()
  @HttpCode(200)
  @ApiOperation({ summary: "Rotate a webhook endpoint's signing secret" })
  async rotateSecret(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('endpointId', UuidPipe) endpointId: string,
  ): Promise<WebhookEndpointWithSecretDocument> {
    return withSecret(await this.endpoints.rotateSecret(principal, organizationId, endpointId));
  }
}

function withSecret(endpoint: EndpointWithSecret): WebhookEndpointWithSecretDocument {
  return { data: toEndpointResource(endpoint), meta: { secret: endpoint.secret } };
}
