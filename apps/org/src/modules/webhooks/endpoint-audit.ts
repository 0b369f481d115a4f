import type { AuditAction, AuditDetails, AuditTarget } from '@wp/contracts';
import type { Principal } from '@wp/security';
import type { WebhookEndpoint } from './webhook-tables.js';

/** What an endpoint change did, as its audit entry names it. */
export type EndpointAuditAction = Extract<AuditAction, `webhook_endpoint.${string}`>;

/** One endpoint action as the audit log takes it. */
export interface EndpointAuditEvent {
  organizationId: number;
  action: EndpointAuditAction;
  target: AuditTarget;
  details: AuditDetails;
}

/**
 * Where endpoint changes are recorded: the organization audit log, which sits above webhooks
 * (it publishes its entries through them), so webhooks declares what it needs and the audit
 * module provides it (`AuditTrail`; docs/architecture.md § Inner layering). Records in the
 * caller's transaction (the one active in the async context: docs/decisions.md § Transactions in
 * the request context).
 */
export abstract class EndpointAuditRecorder {
  abstract record(principal: Principal, event: EndpointAuditEvent): Promise<void>;
}

/**
 * The audit target of an endpoint (docs/org.md § Audit log): its id, labelled with the URL's
 * origin only — a path or query can carry a receiver's credentials, so neither is logged, and
 * never the signing secret.
 */
export function endpointTarget(endpoint: Pick<WebhookEndpoint, 'id' | 'url'>): AuditTarget {
  return { type: 'webhook_endpoint', id: endpoint.id, label: originOf(endpoint.url) };
}

/** The audit entry of one endpoint action (create, update, delete, rotate, enable, disable). */
export function endpointAudit(
  action: EndpointAuditAction,
  endpoint: Pick<WebhookEndpoint, 'id' | 'url' | 'organizationId'>,
  details: AuditDetails = {},
): EndpointAuditEvent {
  return {
    organizationId: endpoint.organizationId,
    action,
    target: endpointTarget(endpoint),
    details,
  };
}

/** `eventTypes` as one audit detail (a short scalar: the filters joined by commas). */
export function eventTypesDetail(eventTypes: readonly string[]): string {
  return eventTypes.join(',').slice(0, 500);
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}
