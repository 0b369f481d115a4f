import { WEBHOOK_EVENT_CATALOG } from './webhook-catalog.js';
import { webhookEventId, type WebhookEvent } from './webhook-event.js';

/**
 * `webhook_endpoint.disabled` when the platform disables an endpoint (docs/webhooks.md § Event
 * catalog): actor `system`, the endpoint's organization and project. Its id derives from the
 * endpoint and the instant it was disabled, so one disabling is one event.
 * @param input.failingSince the start of the failure streak (null: none recorded)
 */
export function webhookEndpointDisabledEvent(input: {
  endpointId: string;
  organizationId: number;
  projectId: number | null;
  reason: 'gone' | 'failing';
  failingSince: Date | null;
  at: Date;
}): WebhookEvent {
  const tenant = String(input.organizationId);
  const type = 'webhook_endpoint.disabled';
  return {
    id: webhookEventId(`${input.endpointId}@${input.at.toISOString()}`, tenant, type),
    type,
    version: WEBHOOK_EVENT_CATALOG[type].version,
    timestamp: input.at.toISOString(),
    organization_id: tenant,
    project_id: input.projectId === null ? null : String(input.projectId),
    actor: { type: 'system', id: null },
    data: {
      id: input.endpointId,
      project_id: input.projectId === null ? null : String(input.projectId),
      reason: input.reason,
      failing_since: input.failingSince?.toISOString() ?? null,
    },
  };
}
