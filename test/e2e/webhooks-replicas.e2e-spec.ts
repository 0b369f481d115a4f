import { DataSource } from 'typeorm';
import { WebhookDispatcher } from '../../apps/org/src/modules/webhooks/webhook-dispatcher.js';
import { ServiceProcess } from '../support/service-process.js';
import { PlatformStack } from '../support/stack.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { RECEIVER_HOST, WEBHOOK_TEST_ENV, webhookWorld } from '../support/webhook-world.js';

/** Polling this rarely cannot explain a delivery within {@link WAKE_BOUND_MS}. */
const POLL_MS = '30000';
const WAKE_BOUND_MS = 500;

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
  const env = { ...WEBHOOK_TEST_ENV, WEBHOOK_POLL_INTERVAL_MS: POLL_MS };

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
    for (let i = 0; i < 5; i++) {
      const member = await world.signUp(`member${i}`);
      const before = receiver.ofType('member.added').length;
      const startedAt = Date.now();
      await world.addMember(orgId, owner, member);
      await world.until(() => receiver.ofType('member.added').length, before + 1, 5000);
      const received = receiver.ofType('member.added')[before];
      // from the change (the event's timestamp, stamped in its transaction) to the receiver
      latencies.push(received.at - Date.parse(received.event.timestamp));
      roundTrips.push(received.at - startedAt);
    }
    console.log(
      `change → delivered by another process: ${latencies.join(', ')} ms ` +
        `(add_user sent → delivered: ${roundTrips.join(', ')} ms)`,
    );
    expect(Math.max(...latencies)).toBeLessThan(WAKE_BOUND_MS);
    const rows: { n: number }[] = await stack.apps
      .get('org')!
      .get(DataSource)
      .query(
        `SELECT count(*)::int AS n FROM webhook_delivery d JOIN webhook_endpoint e ON e.id = d.endpoint_id
          WHERE e.organization_id = $1 AND d.status = 'succeeded'`,
        [Number(orgId)],
      );
    expect(rows[0].n).toBe(5);
  });
});
