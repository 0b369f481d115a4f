import {
  EVENT_CATALOG,
  type EventEnvelope,
  type EventPayload,
  type EventSubject,
} from '../events/catalog.js';
import { WEBHOOK_EVENT_CATALOG } from './webhook-catalog.js';
import { webhookEventsFromBus, webhookPingEvent } from './webhook-from-bus.js';

const USER = '0b1c2b9e-7d0a-4b8e-9f3c-2a1b0c9d8e7f';
const SENTINEL = 'SENTINEL-SECRET-8c1f';
const SENTINEL_HASH = 'ab'.repeat(32);
const A = '0x' + '1'.repeat(40);
const B = '0x' + '2'.repeat(40);

function envelope<S extends EventSubject>(subject: S, payload: EventPayload<S>): EventEnvelope {
  return {
    id: '9a1c2b9e-7d0a-4b8e-9f3c-2a1b0c9d8e7f',
    subject,
    occurredAt: '2026-11-25T10:00:01.000Z',
    payload: EVENT_CATALOG[subject].parse(payload),
  };
}

const posted = (tenants: { organizationId: number; projectId: number | null }[]) =>
  envelope('wallet.transaction.posted', {
    transactionId: '4912d037-0ace-4db0-93fc-117539f42d0f',
    kind: 'transfer',
    fromWallet: A,
    toWallet: B,
    amount: '12.5',
    asset: 'CREDITS',
    toAmount: '12.5',
    toAsset: 'CREDITS',
    description: 'lunch',
    referenceId: null,
    transferId: null,
    createdAt: '2026-11-25T10:00:00.500Z',
    actor: { type: 'agent', id: USER },
    tenants,
  });

const transfer = (status: EventPayload<'wallet.transfer_request.changed'>['status']) =>
  envelope('wallet.transfer_request.changed', {
    transferId: '0c6b9b7e-8f0a-4f63-9a53-3f8f5f3d2a10',
    status,
    failureReason: status === 'rejected' ? 'rejected_by_recipient' : null,
    fromWallet: A,
    toWallet: B,
    amount: '10',
    asset: 'CREDITS',
    description: 'rent',
    transactionId: null,
    createdAt: '2026-11-25T10:00:00.000Z',
    updatedAt: '2026-11-25T10:00:02.000Z',
    actor: { type: 'user', id: USER },
    tenants: [{ organizationId: 3, projectId: null }],
  });

describe('webhookEventsFromBus', () => {
  it('organization and project events of org', () => {
    const [created] = webhookEventsFromBus(
      envelope('org.organization.created', {
        organizationId: 3,
        name: 'Acme',
        createdBy: USER,
        createdAt: '2026-11-25T09:59:59.000Z',
      }),
    );
    expect(created).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      type: 'organization.created',
      version: 1,
      timestamp: '2026-11-25T09:59:59.000Z',
      organization_id: '3',
      project_id: null,
      actor: { type: 'user', id: USER },
      data: { id: '3', name: 'Acme', created_by: USER, created_at: '2026-11-25T09:59:59.000Z' },
    });
    const [renamed] = webhookEventsFromBus(
      envelope('org.organization.updated', { organizationId: 3, name: 'Acme Ltd' }),
    );
    expect(renamed).toMatchObject({
      type: 'organization.updated',
      timestamp: '2026-11-25T10:00:01.000Z',
      data: { id: '3', name: 'Acme Ltd' },
    });
    const [byAdmin] = webhookEventsFromBus(
      envelope('org.organization.updated', { organizationId: 3, name: 'Acme', changedBy: USER }),
    );
    expect(byAdmin?.actor).toEqual({ type: 'user', id: USER });
    expect(renamed?.actor).toBeNull(); // published before `changedBy` existed
    const [gone] = webhookEventsFromBus(
      envelope('org.organization.deleted', { organizationId: 3 }),
    );
    expect(gone).toMatchObject({ type: 'organization.deleted', data: { id: '3' } });
    const [project] = webhookEventsFromBus(
      envelope('org.project.created', {
        organizationId: 3,
        projectId: 7,
        name: 'Website',
        isDefault: true,
        createdBy: USER,
        createdAt: '2026-11-25T09:59:59.000Z',
      }),
    );
    expect(project).toMatchObject({
      type: 'project.created',
      project_id: '7',
      data: { id: '7', organization_id: '3', is_default: true },
    });
    const [updated] = webhookEventsFromBus(
      envelope('org.project.updated', {
        organizationId: 3,
        projectId: 7,
        name: 'Web',
        isDefault: false,
      }),
    );
    expect(updated).toMatchObject({
      type: 'project.updated',
      project_id: '7',
      data: { name: 'Web', is_default: false },
    });
    const [deleted] = webhookEventsFromBus(
      envelope('org.project.deleted', { organizationId: 3, projectId: 7, organizationVersion: 4 }),
    );
    expect(deleted).toMatchObject({
      type: 'project.deleted',
      data: { id: '7', organization_id: '3' },
    });
  });

  it('wallet.created for tenant wallets only (a personal wallet belongs to no endpoint)', () => {
    const wallet = {
      addressHash: A,
      entityType: 'project' as const,
      entityId: '7',
      purpose: 'general',
      currency: 'CREDITS',
    };
    const [event] = webhookEventsFromBus(
      envelope('wallet.wallet.created', { ...wallet, organizationId: 3, projectId: 7 }),
    );
    expect(event).toMatchObject({
      type: 'wallet.created',
      organization_id: '3',
      project_id: '7',
      actor: { type: 'system', id: null },
      data: {
        address_hash: A,
        entity_type: 'project',
        entity_id: '7',
        purpose: 'general',
        currency: 'CREDITS',
      },
    });
    expect(
      webhookEventsFromBus(
        envelope('wallet.wallet.created', {
          ...wallet,
          entityType: 'user',
          entityId: USER,
          organizationId: null,
        }),
      ),
    ).toEqual([]);
    // Published before the tenant fields existed: no tenant known, nothing to deliver.
    expect(webhookEventsFromBus(envelope('wallet.wallet.created', wallet))).toEqual([]);
  });

  it('transaction.posted: one event per distinct tenant side, amounts as numbers', () => {
    const one = webhookEventsFromBus(
      posted([
        { organizationId: 3, projectId: 7 },
        { organizationId: 3, projectId: 7 },
      ]),
    );
    expect(one).toHaveLength(1);
    expect(one[0]).toMatchObject({
      type: 'transaction.posted',
      organization_id: '3',
      project_id: '7',
      timestamp: '2026-11-25T10:00:00.500Z',
      actor: { type: 'agent', id: USER },
      data: {
        id: '4912d037-0ace-4db0-93fc-117539f42d0f',
        kind: 'transfer',
        amount: 12.5,
        to_amount: 12.5,
        from_wallet: A,
        to_wallet: B,
      },
    });
    const two = webhookEventsFromBus(
      posted([
        { organizationId: 3, projectId: null },
        { organizationId: 4, projectId: 9 },
      ]),
    );
    expect(two.map((e) => [e.organization_id, e.project_id])).toEqual([
      ['3', null],
      ['4', '9'],
    ]);
    expect(two[0].id).not.toBe(two[1].id);
    expect(two[0].data).toEqual(two[1].data);
  });

  it('transfer requests: created, accepted (completed), rejected, expired; not the sender step', () => {
    expect(webhookEventsFromBus(transfer('pending_sender_verification'))[0]?.type).toBe(
      'transfer_request.created',
    );
    expect(webhookEventsFromBus(transfer('completed'))[0]?.type).toBe('transfer_request.accepted');
    const [rejected] = webhookEventsFromBus(transfer('rejected'));
    expect(rejected).toMatchObject({
      type: 'transfer_request.rejected',
      data: { status: 'rejected', failure_reason: 'rejected_by_recipient', amount: 10 },
    });
    expect(webhookEventsFromBus(transfer('expired'))[0]?.type).toBe('transfer_request.expired');
    expect(webhookEventsFromBus(transfer('pending_recipient_acceptance'))).toEqual([]);
  });

  it('gives nothing for internal events, and never a hash, key or message text', () => {
    const internal = [
      envelope('org.project.keys.changed', {
        organizationId: 3,
        projectId: 7,
        version: 1,
        keys: [{ id: 'k', publicKey: 'pk', secretKeySha256: SENTINEL_HASH, expiresAt: null }],
      }),
      envelope('org.sentinel_pass.changed', {
        passId: USER,
        organizationId: 3,
        projectId: 7,
        title: 't',
        active: true,
        deleted: false,
        keyHash: SENTINEL,
        expiresAt: null,
        allowedReferers: [],
        scopes: [],
        permissions: [],
        version: 1,
      }),
      envelope('notify.requested', {
        channel: 'email',
        to: 'a@example.com',
        subject: 's',
        text: SENTINEL,
        template: 't',
      }),
      envelope('org.membership.changed', {
        organizationId: 3,
        projectId: null,
        userId: USER,
        role: 'ADMIN',
        accessDenied: false,
        version: 1,
      }),
      envelope('auth.user.two_factor_changed', { userId: USER, enabled: true, version: 1 }),
    ];
    for (const event of internal) expect(webhookEventsFromBus(event)).toEqual([]);
  });

  it('every event it gives is valid for the catalog', () => {
    for (const event of [
      ...webhookEventsFromBus(posted([{ organizationId: 3, projectId: null }])),
      ...webhookEventsFromBus(transfer('completed')),
    ]) {
      expect(WEBHOOK_EVENT_CATALOG[event.type].data.safeParse(event.data).success).toBe(true);
    }
  });
});

describe('webhookPingEvent', () => {
  it('is a ping of the endpoint, its id derived from the request', () => {
    const input = {
      requestId: 'r-1',
      endpointId: 'e-1',
      organizationId: 3,
      projectId: 7,
      actor: null,
      at: new Date('2026-11-25T10:00:00Z'),
    };
    const ping = webhookPingEvent(input);
    expect(ping).toMatchObject({
      type: 'ping',
      organization_id: '3',
      project_id: '7',
      data: { endpoint_id: 'e-1', message: 'ping' },
    });
    expect(WEBHOOK_EVENT_CATALOG.ping.data.safeParse(ping.data).success).toBe(true);
    expect(webhookPingEvent({ ...input, requestId: 'r-2' }).id).not.toBe(ping.id);
  });
});
