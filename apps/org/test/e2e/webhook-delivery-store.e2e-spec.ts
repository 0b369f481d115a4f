import { randomUUID } from 'node:crypto';
import {
  DeliveryStore,
  type ClaimedDelivery,
  type DeliveryOutcome,
  type DeliveryResult,
} from '../../src/modules/webhooks/delivery-store.js';
import { OrgTestContext, type TestUser } from '../support/org-test-app.js';

/**
 * The delivery queue's result batch against PostgreSQL (docs/org.md § Webhooks, Dispatcher):
 * one statement stores each attempt, moves each delivery still leased under the same claim, and
 * keeps each endpoint's failure streak; an attempt whose claim was lost is still logged, and a
 * delivery deleted meanwhile is skipped. The dispatcher of the app under test polls only once an
 * hour here and no publisher wakes it (rows are written with SQL), so the leases are the test's.
 */
describe('webhook delivery store: result batches', () => {
  let ctx: OrgTestContext;
  let store: DeliveryStore;
  let owner: TestUser;
  let orgId: string;
  const dispatcher = randomUUID();
  const window = { ahead: 64, slow: 4, slowEndpointIds: [] };

  beforeAll(async () => {
    ctx = await OrgTestContext.start({
      WEBHOOK_ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1',
      WEBHOOK_POLL_INTERVAL_MS: '3600000',
    });
    store = ctx.org.get(DeliveryStore);
    owner = await ctx.newUser('store');
    orgId = await ctx.newOrganization(owner, 'Store');
  });
  afterAll(() => ctx?.close());

  async function endpointWithDeliveries(count: number): Promise<string> {
    const res = await ctx.request('POST', `/organizations/${orgId}/webhook_endpoints`, {
      token: owner.token,
      body: {
        data: {
          type: 'webhook_endpoints',
          attributes: { url: 'http://127.0.0.1:9/hook', eventTypes: ['member.*'] },
        },
      },
    });
    expect(res.status).toBe(201);
    const endpointId = (res.body as { data: { id: string } }).data.id;
    for (let i = 0; i < count; i++) {
      const messageId = randomUUID();
      const eventId = `evt_${randomUUID()}`;
      await ctx.db.query(
        `INSERT INTO webhook_message (id, event_id, organization_id, event_type, payload)
         VALUES ($1, $2, $3, 'member.added', $4::json)`,
        [messageId, eventId, Number(orgId), JSON.stringify({ id: eventId, type: 'member.added' })],
      );
      await ctx.db.query(
        `INSERT INTO webhook_delivery (id, message_id, endpoint_id, event_type, next_attempt_at)
         VALUES ($1, $2, $3, 'member.added', now() - interval '1 second')`,
        [randomUUID(), messageId, endpointId],
      );
    }
    return endpointId;
  }

  async function claimAll(endpointId: string, count: number): Promise<ClaimedDelivery[]> {
    const claimed = (await store.claim(100, window, 60_000, dispatcher)).filter(
      (c) => c.endpointId === endpointId,
    );
    expect(claimed).toHaveLength(count);
    return claimed;
  }

  function result(claim: ClaimedDelivery, outcome: DeliveryOutcome, status = 200): DeliveryResult {
    return {
      claim,
      outcome,
      attempt: {
        startedAt: new Date(),
        durationMs: 7,
        responseStatus: status,
        responseBody: `answer ${status}`,
        error: null,
      },
    };
  }

  const stateOf = async (id: string) =>
    (
      await ctx.db.query(
        `SELECT status, attempt_count, leased_by, next_attempt_at > now() AS later,
                (SELECT count(*)::int FROM webhook_attempt a WHERE a.delivery_id = d.id) AS attempts
           FROM webhook_delivery d WHERE id = $1`,
        [id],
      )
    )[0] as Record<string, unknown>;

  it('moves owned deliveries, logs the attempt of a lost claim, and keeps the streak', async () => {
    const endpointId = await endpointWithDeliveries(3);
    const [taken, retried, done] = await claimAll(endpointId, 3);
    expect(JSON.parse(taken.body)).toMatchObject({ type: 'member.added' });
    // another dispatcher took the first one over after its lease ran out
    const other = randomUUID();
    await ctx.db.query(
      `UPDATE webhook_delivery SET attempt_count = attempt_count + 1, leased_by = $2 WHERE id = $1`,
      [taken.id, other],
    );

    const streaks = await store.recordAll([
      result(done, { kind: 'succeeded' }),
      result(taken, { kind: 'succeeded' }),
      result(retried, { kind: 'retry', delayMs: 60_000 }, 500),
    ]);

    expect(await stateOf(taken.id)).toEqual({
      status: 'delivering',
      attempt_count: 2,
      leased_by: other,
      later: true,
      attempts: 1,
    });
    expect(await stateOf(retried.id)).toEqual({
      status: 'pending',
      attempt_count: 1,
      leased_by: null,
      later: true,
      attempts: 1,
    });
    expect(await stateOf(done.id)).toMatchObject({ status: 'succeeded', attempts: 1 });
    // the latest owned outcome was a retry: the endpoint is failing since now, still enabled
    expect(streaks.get(endpointId)).toEqual({ failingSince: expect.any(Date), enabled: true });
    const [attempt] = await ctx.db.query<Record<string, unknown>[]>(
      `SELECT response_status, response_body, duration_ms FROM webhook_attempt WHERE delivery_id = $1`,
      [retried.id],
    );
    expect(attempt).toEqual({ response_status: 500, response_body: 'answer 500', duration_ms: 7 });
  });

  it('heals the streak on a success and disables on 410 once', async () => {
    const endpointId = await endpointWithDeliveries(3);
    const [first, second, third] = await claimAll(endpointId, 3);
    await ctx.db.query(`UPDATE webhook_endpoint SET failing_since = now() WHERE id = $1`, [
      endpointId,
    ]);
    expect((await store.recordAll([result(first, { kind: 'succeeded' })])).size).toBe(0);
    const [healed] = await ctx.db.query<{ failing_since: Date | null }[]>(
      `SELECT failing_since FROM webhook_endpoint WHERE id = $1`,
      [endpointId],
    );
    expect(healed.failing_since).toBeNull();

    const gone: DeliveryOutcome = { kind: 'failed_and_disable', reason: 'gone' };
    const disabled = await store.recordAll([result(second, gone, 410)]);
    expect(disabled.get(endpointId)).toEqual({ failingSince: expect.any(Date), enabled: false });
    // announced once: a later 410 of the same endpoint returns nothing for it
    expect((await store.recordAll([result(third, gone, 410)])).has(endpointId)).toBe(false);
    expect(await stateOf(third.id)).toMatchObject({ status: 'failed', attempts: 1 });
  });

  it('skips the attempt of a delivery deleted meanwhile without failing the batch', async () => {
    const endpointId = await endpointWithDeliveries(2);
    const [deleted, kept] = await claimAll(endpointId, 2);
    await ctx.db.query(`DELETE FROM webhook_delivery WHERE id = $1`, [deleted.id]);
    await store.recordAll([
      result(deleted, { kind: 'succeeded' }),
      result(kept, { kind: 'succeeded' }),
    ]);
    expect(await stateOf(kept.id)).toMatchObject({ status: 'succeeded', attempts: 1 });
    const [{ n }] = await ctx.db.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM webhook_attempt WHERE delivery_id = $1`,
      [deleted.id],
    );
    expect(n).toBe(0);
  });
});
