import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { WebhookEventType } from './webhook-event-types.js';

/** Who caused an event: a user, a Sentinel Pass agent, or the platform itself (an expiry). */
export interface WebhookActor {
  type: 'user' | 'agent' | 'system';
  id: string | null;
}

/**
 * What a receiver gets as the JSON body of a webhook request (docs/webhooks.md § Envelope):
 * snake_case like the API, never a secret.
 */
export interface WebhookEvent {
  /** `evt_` + 32 hex digits, derived from the event's source: the same source, the same id. */
  id: string;
  type: WebhookEventType;
  /** The payload version of this type (`WEBHOOK_EVENT_CATALOG[type].version`). */
  version: number;
  /** ISO 8601 instant at which it happened (not when it was sent). */
  timestamp: string;
  /** The tenant: every event belongs to one organization (its id as a string, like the API). */
  organization_id: string;
  /** Set when the event concerns one project: project-scoped endpoints receive only these. */
  project_id: string | null;
  actor: WebhookActor | null;
  /** The resource as the API shows it, or its id; per type in the catalog. Never secrets. */
  data: Record<string, unknown>;
}

/** The envelope as a zod schema (the catalog and docs/openapi.json build on it). */
export const WebhookEnvelope = z.object({
  id: z.string().regex(/^evt_[0-9a-f]{32}$/),
  type: z.string(),
  version: z.number().int().positive(),
  timestamp: z.iso.datetime({ offset: true }),
  organization_id: z.string(),
  project_id: z.string().nullable(),
  actor: z
    .object({ type: z.enum(['user', 'agent', 'system']), id: z.string().nullable() })
    .nullable(),
  data: z.record(z.string(), z.unknown()),
});

/**
 * The stable id of an event: SHA-256 of its source (an audit entry id, an outbox event id),
 * the organization it is delivered to and its type, as `evt_` + the first 32 hex digits. A
 * user-level audit entry stored in three organizations gives three events with three ids; a
 * redelivered source gives the same id again, so receivers deduplicate on `webhook-id`.
 */
export function webhookEventId(source: string, organizationId: string, type: string): string {
  const digest = createHash('sha256').update(`${source}\n${organizationId}\n${type}`);
  return `evt_${digest.digest('hex').slice(0, 32)}`;
}
