import type { AuditAction, AuditDetails, AuditTarget } from '@wp/contracts';
import type { OrganizationAuditEvent } from '../audit/audit-trail.js';
import type { WebhookEndpoint } from './webhook-tables.js';

/** What an endpoint change did, as its audit entry names it. */
export type EndpointAuditAction = Extract<AuditAction, `webhook_endpoint.${string}`>;

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
): OrganizationAuditEvent {
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
