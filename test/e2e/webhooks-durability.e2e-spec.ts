import { TxHost } from '@wp/persistence';
import { waitFor } from '@wp/testing';
import { DataSource } from 'typeorm';
import { WebhookDispatcher } from '../../apps/org/src/modules/webhooks/webhook-dispatcher.js';
import { WebhookPublisher } from '../../apps/org/src/modules/webhooks/webhook-publisher.js';
import { ServiceProcess } from '../support/service-process.js';
import { PlatformStack } from '../support/stack.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import {
  memberAddedEvent,
  RECEIVER_HOST,
  WEBHOOK_TEST_ENV,
  webhookWorld,
} from '../support/webhook-world.js';

const EVENTS = 500;
const ENDPOINTS = 5;

/**
 * At least once across a crash (docs/org.md § Webhooks, Queue), in both modes: two org
 * processes deliver a burst of 500 events to 5 endpoints (2500 deliveries); one is killed with
 * SIGKILL mid-burst; every event reaches every endpoint, counted once by `webhook-id`, because
 * the dead process's leased claims come back after the lease and the other process sends them.
 * The in-process org of the stack serves the API but does not dispatch here.
 */
describe('webhooks: durability across kill -9', () => {
  let stack: PlatformStack;
  const world = webhookWorld(() => stack, 'hook-durability');
  const receivers: WebhookReceiver[] = [];
  const processes: ServiceProcess[] = [];
  const env = {
    ...WEBHOOK_TEST_ENV,
    WEBHOOK_TIMEOUT_MS: '1000',
    WEBHOOK_LEASE_MS: '2000',
    SHUTDOWN_DRAIN_SECONDS: '0', // a graceful stop stops the dispatcher at once
  };

  beforeAll(async () => {
    stack = await PlatformStack.start(env);
    await stack.apps.get('org')!.get(WebhookDispatcher).beforeApplicationShutdown();
    for (let i = 0; i < ENDPOINTS; i++) {
      const receiver = await WebhookReceiver.start(RECEIVER_HOST);
      receiver.answerAlways(() => ({ status: 204, delayMs: 5 }));
      receivers.push(receiver);
    }
    for (let i = 0; i < 2; i++) {
      processes.push(
        await ServiceProcess.start('org', { ...stack.env.env, ...env, METRICS_PORT: '0' }),
      );
    }
  }, 180_000);
  afterAll(async () => {
    for (const p of processes) await p.kill();
    await stack?.close();
    await Promise.all(receivers.map((r) => r.close()));
  });

  it('delivers every event to every endpoint at least once when a delivering process is killed', async () => {
    const owner = await world.signUp('owner');
    const orgId = await world.newOrganization(owner, 'Durable');
    for (const receiver of receivers) {
      await world.endpoint(owner, orgId, { url: receiver.url(), eventTypes: ['member.*'] });
    }
    const org = stack.apps.get('org')!;
    const events = Array.from({ length: EVENTS }, (_, i) => memberAddedEvent(orgId, { n: i }));
    for (let i = 0; i < EVENTS; i += 100) {
      await org
        .get(TxHost)
        .withTransaction(() => org.get(WebhookPublisher).publish(events.slice(i, i + 100)));
    }
    const total = () => receivers.reduce((n, r) => n + r.received.length, 0);
    await waitFor(() => total() >= (EVENTS * ENDPOINTS) / 5, {
      timeoutMs: 20_000,
      what: 'a fifth delivered',
    });
    const inFlight: { n: number }[] = await org
      .get(DataSource)
      .query(`SELECT count(*)::int AS n FROM webhook_delivery WHERE status = 'delivering'`);
    await processes[0].kill(); // SIGKILL, mid-burst
    const killedAt = total();

    await waitFor(
      () =>
        receivers.every(
          (r) => new Set(r.received.map((q) => q.headers['webhook-id'])).size === EVENTS,
        ),
      { timeoutMs: 60_000, what: 'every event at every endpoint' },
    );
    const expected = new Set(events.map((e) => e.id));
    for (const receiver of receivers) {
      const ids = new Set(receiver.received.map((q) => q.headers['webhook-id']));
      expect(ids).toEqual(expected);
    }
    const rows: { status: string; n: number }[] = await org
      .get(DataSource)
      .query(`SELECT status, count(*)::int AS n FROM webhook_delivery GROUP BY status`);
    await waitFor(
      async () => {
        const now: { status: string; n: number }[] = await org
          .get(DataSource)
          .query(`SELECT status, count(*)::int AS n FROM webhook_delivery GROUP BY status`);
        return now.length === 1 && now[0].status === 'succeeded' ? now : undefined;
      },
      { timeoutMs: 10_000, what: 'every delivery succeeded' },
    );
    const duplicates = total() - EVENTS * ENDPOINTS;
    // what the run looked like, for the record
    console.log(
      `kill -9 after ${killedAt} of ${EVENTS * ENDPOINTS} requests (${inFlight[0].n} in flight); ` +
        `${duplicates} sent twice; states before settling ${JSON.stringify(rows)}`,
    );
    expect(duplicates).toBeGreaterThanOrEqual(0);
    // The per-endpoint limit spans both processes (5 endpoints × 4 in flight in all, not per
    // process), so the burst takes about a minute on a loaded machine: room beyond jest's 60 s.
  }, 150_000);

  it('gives the deliveries still queued in a process back, uncounted, when it stops gracefully', async () => {
    const owner = await world.signUp('graceful');
    const orgId = await world.newOrganization(owner, 'Graceful');
    const slow = await WebhookReceiver.start(RECEIVER_HOST);
    receivers.push(slow);
    slow.answerAlways(() => ({ status: 204, delayMs: 800 })); // under the 1 s timeout
    const e = await world.endpoint(owner, orgId, { url: slow.url(), eventTypes: ['member.*'] });
    const org = stack.apps.get('org')!;
    const events = Array.from({ length: 40 }, () => memberAddedEvent(orgId, { n: 0 }));
    await org.get(TxHost).withTransaction(() => org.get(WebhookPublisher).publish(events));
    // the living process leases all 40 ahead and sends 4 at a time (10 s in all)
    await waitFor(() => (slow.received.length >= 4 ? true : undefined), {
      timeoutMs: 10_000,
      what: 'the first requests',
    });
    processes[1].signal('SIGTERM');
    await processes[1].exit;
    const rows: { status: string; attempt_count: number; attempts: number; leased: boolean }[] =
      await org.get(DataSource).query(
        `SELECT d.status, d.attempt_count, d.leased_by IS NOT NULL AS leased,
                (SELECT count(*)::int FROM webhook_attempt a WHERE a.delivery_id = d.id) AS attempts
           FROM webhook_delivery d WHERE d.endpoint_id = $1`,
        [e.id],
      );
    expect(rows).toHaveLength(40);
    // every attempt made was recorded, and nothing unattempted stayed leased or counted
    for (const row of rows) {
      expect(row).toEqual({
        status: row.attempts > 0 ? 'succeeded' : 'pending',
        attempt_count: row.attempts,
        attempts: row.attempts,
        leased: false,
      });
    }
    expect(rows.filter((r) => r.status === 'pending').length).toBeGreaterThan(20);
    expect(slow.received.length).toBe(rows.filter((r) => r.attempts > 0).length);
  }, 60_000);
});
