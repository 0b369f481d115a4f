import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntIdPipe, parseIsoInstant, UuidPipe } from '@wp/http';
import { CurrentPrincipal, type Principal } from '@wp/security';
import { requireEitherForm } from '../../common/body-fields.js';
import { DeliveryQueryDto } from './dto/delivery-query.dto.js';
import { ReplayBodyDto } from './dto/replay-body.dto.js';
import { WebhookDeliveriesService } from './webhook-deliveries.service.js';
import {
  toDeliveryResource,
  WebhookDeliveryDocument,
  WebhookDeliveryPage,
  WebhookReplayAnswer,
} from './webhook.serializer.js';

const E = 'webhook_endpoints/:endpointId';
const DEFAULT_LIMIT = 50;

/**
 * An endpoint's deliveries on {org_url} (docs/org.md § Webhooks, Delivery log): the log with
 * its attempts, a test `ping`, resending one delivery, replaying what was missed. Same rules as
 * the endpoints (OWNER, ADMIN; 404 across organizations and endpoints).
 */
@ApiTags('webhooks')
@ApiBearerAuth()
@Controller('organizations/:organizationId')
export class WebhookDeliveriesController {
  constructor(private readonly deliveries: WebhookDeliveriesService) {}

  /** `GET …/{endpointId}/deliveries` → 200 page, newest first; 400 invalid filter or cursor. */
  @Get(`${E}/deliveries`)
  @ApiOperation({ summary: "List a webhook endpoint's deliveries with their attempts" })
  async list(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('endpointId', UuidPipe) endpointId: string,
    @Query() query: DeliveryQueryDto,
  ): Promise<WebhookDeliveryPage> {
    const limit = query.limit ?? DEFAULT_LIMIT;
    const page = await this.deliveries.page(
      principal,
      organizationId,
      endpointId,
      {
        status: query.status,
        eventTypes: query.event_type,
        since: query.since === undefined ? undefined : parseIsoInstant(query.since)!,
      },
      query.cursor,
      limit,
    );
    return {
      data: page.rows.map(toDeliveryResource),
      meta: { limit, next_cursor: page.nextCursor },
    };
  }

  /** `POST …/{endpointId}/test` → 202 with the queued `ping` delivery. */
  @Post(`${E}/test`)
  @HttpCode(202)
  @ApiOperation({ summary: 'Send a test (ping) event to a webhook endpoint' })
  async test(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('endpointId', UuidPipe) endpointId: string,
  ): Promise<WebhookDeliveryDocument> {
    return {
      data: toDeliveryResource(await this.deliveries.test(principal, organizationId, endpointId)),
    };
  }

  /** `POST …/{endpointId}/deliveries/{deliveryId}/resend` → 202 with the delivery, due now. */
  @Post(`${E}/deliveries/:deliveryId/resend`)
  @HttpCode(202)
  @ApiOperation({ summary: 'Send one webhook delivery again' })
  async resend(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('endpointId', UuidPipe) endpointId: string,
    @Param('deliveryId', UuidPipe) deliveryId: string,
  ): Promise<WebhookDeliveryDocument> {
    const row = await this.deliveries.resend(principal, organizationId, endpointId, deliveryId);
    return { data: toDeliveryResource(row) };
  }

  /**
   * `POST …/{endpointId}/replay` (`since`) → 202 with `meta.queued`: failed deliveries since
   * then start over, messages it never got are queued.
   */
  @Post(`${E}/replay`)
  @HttpCode(202)
  @ApiOperation({ summary: 'Replay what a webhook endpoint missed since an instant' })
  async replay(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('endpointId', UuidPipe) endpointId: string,
    @Body() dto: ReplayBodyDto,
  ): Promise<WebhookReplayAnswer> {
    const since = requireEitherForm(dto.data?.attributes?.since, dto.since, 'since');
    const result = await this.deliveries.replay(
      principal,
      organizationId,
      endpointId,
      parseIsoInstant(since)!,
    );
    return { meta: result };
  }
}
