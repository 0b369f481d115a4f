import type { EventEnvelope, EventPayload, EventSubject } from '../events/catalog.js';
import type { WalletTenant } from '../events/wallet.events.js';
import { WEBHOOK_EVENT_CATALOG } from './webhook-catalog.js';
import type { WebhookEventType } from './webhook-event-types.js';
import { webhookEventId, type WebhookActor, type WebhookEvent } from './webhook-event.js';

/** One public event a bus event gives, before its envelope is filled in. */
interface Mapped {
  type: WebhookEventType;
  organizationId: number;
  projectId: number | null;
  actor: WebhookActor | null;
  data: Record<string, unknown>;
  /** When it happened, if the payload says so (else the envelope's `occurredAt`). */
  at?: string;
}
type BusMapper<S extends EventSubject> = (payload: EventPayload<S>) => Mapped[];

/**
 * Public webhook events of one internal bus event (docs/webhooks.md § Sources): org's own
 * `org.organization.*` and `org.project.*` where org enqueues them, and the wallet's
 * `wallet.wallet.created`, `wallet.transaction.posted`, `wallet.transfer_request.changed` where
 * org consumes them. 0..n events: a movement or transfer request between wallets of two
 * tenants gives one event per tenant side (the same `data`), a personal wallet none. Audit
 * events (`auth.audit.recorded`, `wallet.audit.recorded`) give none here: org maps the entries
 * it stores with `webhookEventsFromAudit`, once per organization. Every `data` is checked
 * against the catalog's strict schema (an invalid one is dropped). Ids derive from the bus
 * event id, the organization and the type, so a redelivery yields the same ids. Pure: no I/O.
 */
export function webhookEventsFromBus(envelope: EventEnvelope): WebhookEvent[] {
  const mapper = mapperOf(envelope.subject);
  if (!mapper) return [];
  const events: WebhookEvent[] = [];
  for (const mapped of mapper(envelope.payload)) {
    const catalog = WEBHOOK_EVENT_CATALOG[mapped.type];
    const parsed = catalog.data.safeParse(mapped.data);
    if (!parsed.success) continue;
    const tenant = String(mapped.organizationId);
    const project = mapped.projectId === null ? null : String(mapped.projectId);
    events.push({
      id: webhookEventId(envelope.id, `${tenant}/${project ?? ''}`, mapped.type),
      type: mapped.type,
      version: catalog.version,
      timestamp: new Date(mapped.at ?? envelope.occurredAt).toISOString(),
      organization_id: tenant,
      project_id: project,
      actor: mapped.actor,
      data: parsed.data as Record<string, unknown>,
    });
  }
  return events;
}

/** The mapper of a subject, typed by it. */
function mapperOf<S extends EventSubject>(subject: S): BusMapper<S> | undefined {
  return MAPPERS[subject];
}

const user = (id: string): WebhookActor => ({ type: 'user', id });

/** The distinct (organization, project) sides of a wallet event. */
function sides(tenants: WalletTenant[]): WalletTenant[] {
  const seen = new Set<string>();
  return tenants.filter((t) => {
    const key = `${t.organizationId}/${t.projectId ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const TRANSFER_TYPES: Partial<Record<string, WebhookEventType>> = {
  pending_sender_verification: 'transfer_request.created',
  completed: 'transfer_request.accepted',
  rejected: 'transfer_request.rejected',
  expired: 'transfer_request.expired',
};

const MAPPERS: { [S in EventSubject]?: BusMapper<S> } = {
  'org.organization.created': (p) => [
    {
      type: 'organization.created',
      organizationId: p.organizationId,
      projectId: null,
      actor: user(p.createdBy),
      at: p.createdAt,
      data: {
        id: String(p.organizationId),
        name: p.name,
        created_by: p.createdBy,
        created_at: new Date(p.createdAt).toISOString(),
      },
    },
  ],
  'org.organization.updated': (p) => [
    {
      type: 'organization.updated',
      organizationId: p.organizationId,
      projectId: null,
      actor: p.changedBy ? user(p.changedBy) : null,
      data: { id: String(p.organizationId), name: p.name },
    },
  ],
  'org.organization.deleted': (p) => [
    {
      type: 'organization.deleted',
      organizationId: p.organizationId,
      projectId: null,
      actor: null,
      data: { id: String(p.organizationId) },
    },
  ],
  'org.project.created': (p) => [
    {
      type: 'project.created',
      organizationId: p.organizationId,
      projectId: p.projectId,
      actor: user(p.createdBy),
      at: p.createdAt,
      data: {
        id: String(p.projectId),
        organization_id: String(p.organizationId),
        name: p.name,
        is_default: p.isDefault,
        created_by: p.createdBy,
        created_at: new Date(p.createdAt).toISOString(),
      },
    },
  ],
  'org.project.updated': (p) => [
    {
      type: 'project.updated',
      organizationId: p.organizationId,
      projectId: p.projectId,
      actor: p.changedBy ? user(p.changedBy) : null,
      data: {
        id: String(p.projectId),
        organization_id: String(p.organizationId),
        name: p.name,
        is_default: p.isDefault,
      },
    },
  ],
  'org.project.deleted': (p) => [
    {
      type: 'project.deleted',
      organizationId: p.organizationId,
      projectId: p.projectId,
      actor: p.changedBy ? user(p.changedBy) : null,
      data: { id: String(p.projectId), organization_id: String(p.organizationId) },
    },
  ],
  'wallet.wallet.created': (p) => {
    if (p.organizationId == null) return [];
    return [
      {
        type: 'wallet.created',
        organizationId: p.organizationId,
        projectId: p.projectId ?? null,
        actor: { type: 'system', id: null },
        data: {
          address_hash: p.addressHash,
          entity_type: p.entityType,
          entity_id: p.entityId,
          purpose: p.purpose,
          currency: p.currency,
        },
      },
    ];
  },
  'wallet.transaction.posted': (p) =>
    sides(p.tenants).map((t): Mapped => ({
      type: 'transaction.posted',
      organizationId: t.organizationId,
      projectId: t.projectId,
      actor: p.actor,
      at: p.createdAt,
      data: {
        id: p.transactionId,
        kind: p.kind,
        from_wallet: p.fromWallet,
        to_wallet: p.toWallet,
        amount: Number(p.amount),
        asset: p.asset,
        to_amount: Number(p.toAmount),
        to_asset: p.toAsset,
        description: p.description,
        reference_id: p.referenceId,
        transfer_id: p.transferId,
        created_at: new Date(p.createdAt).toISOString(),
      },
    })),
  'wallet.transfer_request.changed': (p) => {
    const type = TRANSFER_TYPES[p.status];
    if (!type) return [];
    return sides(p.tenants).map((t): Mapped => ({
      type,
      organizationId: t.organizationId,
      projectId: t.projectId,
      actor: p.actor,
      at: p.updatedAt,
      data: {
        id: p.transferId,
        from_wallet: p.fromWallet,
        to_wallet: p.toWallet,
        amount: Number(p.amount),
        asset: p.asset,
        description: p.description,
        status: p.status,
        failure_reason: p.failureReason,
        transaction_id: p.transactionId,
        created_at: new Date(p.createdAt).toISOString(),
        updated_at: new Date(p.updatedAt).toISOString(),
      },
    }));
  },
};

/**
 * The test event `POST …/webhook-endpoints/{id}/test` sends (docs/webhooks.md § Testing an
 * endpoint): type `ping`, the endpoint's organization and project, a fresh id per request
 * (`requestId`, e.g. a random UUID, is its source).
 */
export function webhookPingEvent(input: {
  requestId: string;
  endpointId: string;
  organizationId: number;
  projectId: number | null;
  actor: WebhookActor | null;
  at: Date;
}): WebhookEvent {
  const tenant = String(input.organizationId);
  return {
    id: webhookEventId(input.requestId, tenant, 'ping'),
    type: 'ping',
    version: WEBHOOK_EVENT_CATALOG.ping.version,
    timestamp: input.at.toISOString(),
    organization_id: tenant,
    project_id: input.projectId === null ? null : String(input.projectId),
    actor: input.actor,
    data: { endpoint_id: input.endpointId, message: 'ping' },
  };
}
