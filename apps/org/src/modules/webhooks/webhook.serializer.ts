import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { DeliveryRow } from './webhook-deliveries.repository.js';
import type { EndpointWithCounts } from './webhook-endpoints.repository.js';
import { DELIVERY_STATUSES } from './webhook-tables.js';

/** Attributes of a webhook endpoint (docs/org.md § Webhooks, API). */
export class WebhookEndpointAttributes {
  @ApiProperty()
  url!: string;

  @ApiProperty()
  description!: string;

  @ApiProperty({ type: [String], description: '`*`, `<resource>.*` or exact event types.' })
  eventTypes!: string[];

  @ApiProperty({ type: String, nullable: true, description: 'Only events of this project.' })
  projectId!: string | null;

  @ApiProperty()
  enabled!: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    enum: ['manual', 'gone', 'failing'],
    description: 'Why it is disabled: by a member, 410 Gone, or failing too long.',
  })
  disabledReason!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'First failure since the last success.',
  })
  failingSince!: string | null;

  @ApiProperty({ description: 'Deliveries queued or in flight.' })
  pendingDeliveries!: number;

  @ApiProperty({ description: 'Deliveries that gave up (resend or replay them).' })
  failedDeliveries!: number;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'When the previous secret stops signing.',
  })
  previousSecretExpiresAt!: string | null;

  @ApiProperty()
  createdAt!: string;

  @ApiProperty()
  updatedAt!: string;
}

export class WebhookEndpointResource {
  @ApiProperty({ enum: ['webhook_endpoints'] })
  type!: 'webhook_endpoints';

  @ApiProperty({ description: 'Endpoint id (UUID).' })
  id!: string;

  @ApiProperty({ type: () => WebhookEndpointAttributes })
  attributes!: WebhookEndpointAttributes;
}

export class WebhookSecretMeta {
  @ApiProperty({
    description: 'The signing secret (`whsec_…`), shown only here: store it now.',
  })
  secret!: string;
}

/** One endpoint (`GET`, `PATCH`). */
export class WebhookEndpointDocument {
  @ApiProperty({ type: () => WebhookEndpointResource })
  data!: WebhookEndpointResource;
}

/** Create and rotate: the endpoint and its secret in `meta.secret`. */
export class WebhookEndpointWithSecretDocument {
  @ApiProperty({ type: () => WebhookEndpointResource })
  data!: WebhookEndpointResource;

  @ApiProperty({ type: () => WebhookSecretMeta })
  meta!: WebhookSecretMeta;
}

/** The organization's endpoints, oldest first. */
export class WebhookEndpointList {
  @ApiProperty({ type: () => [WebhookEndpointResource] })
  data!: WebhookEndpointResource[];
}

export class WebhookAttemptView {
  @ApiProperty()
  id!: string;

  @ApiProperty()
  startedAt!: string;

  @ApiProperty()
  durationMs!: number;

  @ApiProperty({ type: Number, nullable: true, description: 'Null when no answer came.' })
  responseStatus!: number | null;

  @ApiProperty({ type: String, nullable: true, description: 'The first 4 KB of the answer.' })
  responseBody!: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Why no answer came.' })
  error!: string | null;
}

export class WebhookDeliveryAttributes {
  @ApiProperty({ description: 'The event id (`webhook-id`).' })
  eventId!: string;

  @ApiProperty()
  eventType!: string;

  @ApiProperty({ enum: DELIVERY_STATUSES })
  status!: string;

  @ApiProperty()
  attemptCount!: number;

  @ApiProperty({ type: String, nullable: true, description: 'Next attempt, while pending.' })
  nextAttemptAt!: string | null;

  @ApiProperty()
  createdAt!: string;

  @ApiProperty()
  updatedAt!: string;

  @ApiProperty({ type: () => [WebhookAttemptView], description: 'Oldest first (last 20).' })
  attempts!: WebhookAttemptView[];
}

export class WebhookDeliveryResource {
  @ApiProperty({ enum: ['webhook_deliveries'] })
  type!: 'webhook_deliveries';

  @ApiProperty()
  id!: string;

  @ApiProperty({ type: () => WebhookDeliveryAttributes })
  attributes!: WebhookDeliveryAttributes;
}

export class WebhookDeliveryDocument {
  @ApiProperty({ type: () => WebhookDeliveryResource })
  data!: WebhookDeliveryResource;
}

export class WebhookDeliveryPageMeta {
  @ApiProperty()
  limit!: number;

  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for older ones.' })
  next_cursor!: string | null;
}

/** `GET …/deliveries`: newest first. */
export class WebhookDeliveryPage {
  @ApiProperty({ type: () => [WebhookDeliveryResource] })
  data!: WebhookDeliveryResource[];

  @ApiProperty({ type: () => WebhookDeliveryPageMeta })
  meta!: WebhookDeliveryPageMeta;
}

export class WebhookReplayMeta {
  @ApiProperty({ description: 'Deliveries queued.' })
  queued!: number;

  @ApiPropertyOptional({ description: 'More messages are left: call again.' })
  more!: boolean;
}

export class WebhookReplayAnswer {
  @ApiProperty({ type: () => WebhookReplayMeta })
  meta!: WebhookReplayMeta;
}

export function toEndpointResource({
  endpoint,
  pendingDeliveries,
  failedDeliveries,
}: EndpointWithCounts): WebhookEndpointResource {
  const overlap = endpoint.previousSecretExpiresAt;
  return {
    type: 'webhook_endpoints',
    id: endpoint.id,
    attributes: {
      url: endpoint.url,
      description: endpoint.description,
      eventTypes: endpoint.eventTypes,
      projectId: endpoint.projectId === null ? null : String(endpoint.projectId),
      enabled: endpoint.enabled,
      disabledReason: endpoint.disabledReason,
      failingSince: endpoint.failingSince?.toISOString() ?? null,
      pendingDeliveries,
      failedDeliveries,
      previousSecretExpiresAt:
        overlap && overlap.getTime() > Date.now() ? overlap.toISOString() : null,
      createdAt: endpoint.createdAt.toISOString(),
      updatedAt: endpoint.updatedAt.toISOString(),
    },
  };
}

export function toDeliveryResource(row: DeliveryRow): WebhookDeliveryResource {
  return {
    type: 'webhook_deliveries',
    id: row.id,
    attributes: {
      eventId: row.eventId,
      eventType: row.eventType,
      status: row.status,
      attemptCount: row.attemptCount,
      nextAttemptAt: row.status === 'pending' ? (row.nextAttemptAt?.toISOString() ?? null) : null,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      attempts: row.attempts.map((a) => ({
        id: a.id,
        startedAt: a.startedAt.toISOString(),
        durationMs: a.durationMs,
        responseStatus: a.responseStatus,
        responseBody: a.responseBody,
        error: a.error,
      })),
    },
  };
}
