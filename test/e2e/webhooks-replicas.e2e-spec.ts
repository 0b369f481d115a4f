import { randomBytes } from 'node:crypto';
import type { WebhookEvent } from '@wp/contracts';
import { TxHost } from '@wp/persistence';
import { waitFor } from '@wp/testing';
import { DataSource } from 'typeorm';
import { WebhookDispatcher } from '../../apps/org/src/modules/webhooks/webhook-dispatcher.js';
import { WebhookPublisher } from '../../apps/org/src/modules/webhooks/webhook-publisher.js';
import { ServiceProcess } from '../support/service-process.js';
import { PlatformStack } from '../support/stack.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { RECEIVER_HOST, WEBHOOK_TEST_ENV, webhookWorld } from '../support/webhook-world.js';

/** Polling this rarely cannot explain a delivery within {@link WAKE_BOUND_MS}. */
const POLL_MS = '30000';
const WAKE_BOUND_MS = 500;
/** `WEBHOOK_ENDPOINT_CONCURRENCY` of the org processes here. */
const PER_ENDPOINT = 3;

/**
 * Webhooks across org replicas (docs/org.md § Webhooks, Flow and Dispatcher), in both modes: the
 * stack's in-process org serves the API and queues deliveries but does not dispatch; two other
 * org processes do. Their poll is 30 s, so only the signal sent on commit (NATS or `NOTIFY`) can
 * make them send within half a second.
 */
describe('webhooks: two org replicas', () => {
  let stack: PlatformStack;
  const world = webhookWorld(() => stack, 'hook-replicas');
  const processes: ServiceProcess[] = [];
  let receiver: WebhookReceiver;
  const env = {
    ...WEBHOOK_TEST_ENV,
    WEBHOOK_POLL_INTERVAL_MS: POLL_MS,
    WEBHOOK_ENDPOINT_CONCURRENCY: String(PER_ENDPOINT),
  };

  beforeAll(async () => {
    stack = await PlatformStack.start(env);
    await stack.apps.get('org')!.get(WebhookDispatcher).beforeApplicationShutdown();
    receiver = await WebhookReceiver.start(RECEIVER_HOST);
    for (let i = 0; i < 2; i++) {
      processes.push(
        await ServiceProcess.start('org', { ...stack.env.env, ...env, METRICS_PORT: '0' }),
      );
    }
  }, 180_000);
  afterAll(async () => {
    for (const p of processes) await p.kill();
    await stack?.close();
    await receiver?.close();
  });

  it('wakes the other replicas on enqueue: each event arrives well under a poll interval', async () => {
    const owner = await world.signUp('owner');
    const orgId = await world.newOrganization(owner, 'Replicas');
    await world.endpoint(owner, orgId, { url: receiver.url(), eventTypes: ['member.added'] });
    const latencies: number[] = [];
    const roundTrips: number[] = [];
    // the first round warms up (connections to the receiver, prepared plans) and is not counted
    for (let i = -1; i < 5; i++) {
      const member = await world.signUp(`member${i}`);
      const before = receiver.ofType('member.added').length;
      const startedAt = Date.now();
      await world.addMember(orgId, owner, member);
      await world.until(() => receiver.ofType('member.added').length, before + 1, 5000);
      const received = receiver.ofType('member.added')[before];
      if (i < 0) continue;
      // from the change (the event's timestamp, stamped in its transaction) to the receiver
      latencies.push(received.at - Date.parse(received.event.timestamp));
      roundTrips.push(received.at - startedAt);
    }
    console.log(
      `change → delivered by another process: ${latencies.join(', ')} ms ` +
        `(add_user sent → delivered: ${roundTrips.join(', ')} ms)`,
    );
    expect(Math.max(...latencies)).toBeLessThan(WAKE_BOUND_MS);
    // The receiver has the last request before its sender records the answer: wait for that.
    const succeeded = async () => {
      const rows: { n: number }[] = await stack.apps
        .get('org')!
        .get(DataSource)
        .query(
          `SELECT count(*)::int AS n FROM webhook_delivery d JOIN webhook_endpoint e ON e.id = d.endpoint_id
            WHERE e.organization_id = $1 AND d.status = 'succeeded'`,
          [Number(orgId)],
        );
      return rows[0].n;
    };
    await waitFor(async () => (await succeeded()) >= 6, {
      timeoutMs: 5000,
      what: '6 deliveries recorded as succeeded',
    });
    expect(await succeeded()).toBe(6);
  });

  it('keeps one endpoint at its in-flight limit over both replicas, and a fast endpoint unhindered', async () => {
    const owner = await world.signUp('owner');
    const orgId = await world.newOrganization(owner, 'Concurrency');
    const slow = await WebhookReceiver.start(RECEIVER_HOST);
    const fast = await WebhookReceiver.start(RECEIVER_HOST);
    try {
      let current = 0;
      let most = 0;
      slow.answerAlways(() => {
        current++;
        most = Math.max(most, current);
        setTimeout(() => current--, 400);
        return { status: 204, delayMs: 400 };
      });
      await world.endpoint(owner, orgId, { url: slow.url(), eventTypes: ['member.added'] });
      await world.endpoint(owner, orgId, { url: fast.url(), eventTypes: ['member.removed'] });
      const org = stack.apps.get('org')!;
      const publish = (type: string, n: number) =>
        org
          .get(TxHost)
          .withTransaction(() => org.get(WebhookPublisher).publish(events(orgId, type, n)));
      await publish('member.added', 24); // 24 × 400 ms / 3 at once: about 3.2 s of work
      await world.until(() => slow.received.length, PER_ENDPOINT, 2000, 'the slow endpoint busy');
      const started = Date.now();
      await publish('member.removed', 20);
      await world.until(() => fast.received.length, 20, 2000, 'the fast endpoint’s 20 events');
      const fastMs = Date.now() - started;
      expect(slow.received.length).toBeLessThan(24); // the slow one was still busy meanwhile
      await world.until(() => slow.received.length, 24, 15_000, 'the slow endpoint’s 24 events');
      console.log(
        `most at once at one endpoint over 2 replicas: ${most} (limit ${PER_ENDPOINT}); ` +
          `fast endpoint's 20 events in ${fastMs} ms while the slow one was full`,
      );
      expect(most).toBe(PER_ENDPOINT);
      expect(new Set(slow.received.map((r) => r.headers['webhook-id'])).size).toBe(24);
    } finally {
      await Promise.all([slow.close(), fast.close()]);
    }
  });
});

/** `n` events of `type` for the organization, as a source would publish them. */
function events(orgId: string, type: string, n: number): WebhookEvent[] {
  return Array.from({ length: n }, () => ({
    id: `evt_${randomBytes(16).toString('hex')}`,
    type,
    version: 1,
    timestamp: new Date().toISOString(),
    organization_id: orgId,
    project_id: null,
    actor: null,
    data: { user: { id: '00000000-0000-4000-8000-000000000000', email: null }, role: 'MEMBER' },
  })) as WebhookEvent[];
}
