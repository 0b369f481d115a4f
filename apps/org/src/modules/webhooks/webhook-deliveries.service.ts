import { activeTransaction, TxHost } from '@wp/persistence';
import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { WebhookEventType } from '@wp/contracts';
import { decodeCursor, DomainError, encodeCursor, ValidationFailedError } from '@wp/http';
import type { Principal } from '@wp/security';
import { endpointSelects } from './endpoint-matching.js';
import {
  WebhookDeliveriesRepository,
  type DeliveryFilter,
  type DeliveryRow,
} from './webhook-deliveries.repository.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';
import { WebhookDeliveryNotFoundError, WebhookEndpointDisabledError } from './webhooks.errors.js';
import { DispatchSignal } from './dispatch-signal.js';

/** Most messages one replay queues; the answer says when more are left (call again). */
export const REPLAY_BATCH = 10_000;

/** 409 `WEBHOOK_DELIVERY_IN_FLIGHT`: a resend while an attempt of the delivery is running. */
export class WebhookDeliveryInFlightError extends DomainError {
  constructor() {
    super('conflict', 'WEBHOOK_DELIVERY_IN_FLIGHT', 'Delivery attempt in flight', {
      detail: 'An attempt of this delivery is running; ask again once it has ended.',
    });
  }
}

export interface DeliveryPage {
  rows: DeliveryRow[];
  nextCursor: string | null;
}

/**
 * An endpoint's delivery log and its re-sends (docs/org.md § Webhooks, Delivery log, resend
 * and replay): same permission as the endpoints; another endpoint's or organization's delivery
 * id is 404.
 */
@Injectable()
export class WebhookDeliveriesService {
  constructor(
    private readonly txHost: TxHost,
    private readonly endpoints: WebhookEndpointsService,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly signal: DispatchSignal,
  ) {}

  /** @throws 404 organization or endpoint; 403; 400 for a cursor that no page gave */
  async page(
    principal: Principal,
    organizationId: number,
    endpointId: string,
    filter: DeliveryFilter,
    cursor: string | undefined,
    limit: number,
  ): Promise<DeliveryPage> {
    await this.endpoints.authorize(principal, organizationId);
    await this.endpoints.require(organizationId, endpointId);
    const position = cursor === undefined ? null : decodeCursor(cursor);
    const rows = await this.deliveries.page(endpointId, filter, position, limit + 1);
    const more = rows.length > limit;
    const shown = more ? rows.slice(0, limit) : rows;
    const last = shown[shown.length - 1];
    return {
      rows: shown,
      nextCursor: more && last ? encodeCursor({ at: last.cursorAt, id: last.id }) : null,
    };
  }

  /**
   * Sends a `ping` to the endpoint (whatever its filters) and answers its queued delivery.
   * @throws 404; 403; 422 `WEBHOOK_ENDPOINT_DISABLED`
   */
  async test(
    principal: Principal,
    organizationId: number,
    endpointId: string,
  ): Promise<DeliveryRow> {
    const deliveryId = await this.endpoints.test(principal, organizationId, endpointId);
    const row = await this.deliveries.find(endpointId, deliveryId);
    if (!row) throw new WebhookDeliveryNotFoundError(); // the endpoint was deleted meanwhile
    return row;
  }

  /**
   * Sends a delivery again now with a fresh retry schedule.
   * @throws 404; 409 `WEBHOOK_DELIVERY_IN_FLIGHT`; 422 `WEBHOOK_ENDPOINT_DISABLED`
   */
  async resend(
    principal: Principal,
    organizationId: number,
    endpointId: string,
    deliveryId: string,
  ): Promise<DeliveryRow> {
    await this.txHost.withTransaction(async () => {
      await this.endpoints.authorize(principal, organizationId, true);
      const endpoint = await this.endpoints.require(organizationId, endpointId);
      if (!endpoint.enabled) throw new WebhookEndpointDisabledError();
      if (!(await this.deliveries.resend(endpointId, deliveryId))) {
        const existing = await this.deliveries.find(endpointId, deliveryId);
        if (!existing) throw new WebhookDeliveryNotFoundError();
        throw new WebhookDeliveryInFlightError();
      }
      this.signal.mark();
    });
    const row = await this.deliveries.find(endpointId, deliveryId);
    if (!row) throw new WebhookDeliveryNotFoundError();
    return row;
  }

  /**
   * Replays what the endpoint missed since `since`: its `failed` deliveries of messages since
   * then start over, and the organization's messages since then that it selects (project scope
   * and filters as now) but never got are queued (at most {@link REPLAY_BATCH} per call).
   * Succeeded deliveries are not sent again: use resend for one.
   * @returns how many deliveries were queued, and whether more messages are left
   * @throws 404; 422 `WEBHOOK_ENDPOINT_DISABLED`; 400 `since` in the future
   */
  async replay(
    principal: Principal,
    organizationId: number,
    endpointId: string,
    since: Date,
  ): Promise<{ queued: number; more: boolean }> {
    if (since.getTime() > Date.now()) {
      throw ValidationFailedError.at({ pointer: '/since' }, 'since must not be in the future');
    }
    return this.txHost.withTransaction(async () => {
      await this.endpoints.authorize(principal, organizationId, true);
      const endpoint = await this.endpoints.require(organizationId, endpointId, true);
      if (!endpoint.enabled) throw new WebhookEndpointDisabledError();
      const requeued = await this.deliveries.requeueFailed(endpointId, since);
      const missed = await this.deliveries.missed(organizationId, endpointId, since, REPLAY_BATCH);
      const scope = {
        id: endpoint.id,
        organizationId: String(organizationId),
        projectId: endpoint.projectId === null ? null : String(endpoint.projectId),
        eventTypes: endpoint.eventTypes,
      };
      const chosen = missed.filter((m) =>
        endpointSelects(scope, {
          type: m.eventType as WebhookEventType,
          organization_id: String(organizationId),
          project_id: m.projectId,
        }),
      );
      if (chosen.length > 0) {
        await activeTransaction(this.txHost).query(
          `INSERT INTO webhook_delivery (id, message_id, endpoint_id, event_type, status, next_attempt_at)
           SELECT id, message_id, $3::uuid, event_type, 'pending', now()
             FROM unnest($1::uuid[], $2::uuid[], $4::text[]) AS t(id, message_id, event_type)
           ON CONFLICT (message_id, endpoint_id) DO NOTHING`,
          [
            chosen.map(() => randomUUID()),
            chosen.map((m) => m.id),
            endpointId,
            chosen.map((m) => m.eventType),
          ],
        );
      }
      if (requeued + chosen.length > 0) this.signal.mark();
      return { queued: requeued + chosen.length, more: missed.length === REPLAY_BATCH };
    });
  }
}
