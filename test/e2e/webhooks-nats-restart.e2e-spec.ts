import { describeIf, SERVICES_ONLY, testPlatformMode, waitFor } from '@wp/testing';
import { DataSource } from 'typeorm';
import { usePlatformOnPrivateNats } from '../support/nats-outage.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import {
  RECEIVER_HOST,
  WEBHOOK_TEST_ENV,
  webhookWorld,
  type Account,
} from '../support/webhook-world.js';

const EVENTS = 500;
const ENDPOINTS = 5;
/** Credits the client has in flight at once. */
const CONCURRENCY = 4;
/** NATS goes down once this many credits have been answered (and some webhooks delivered)… */
const KILL_AFTER = 150;
/** …and stays down until this many more have been answered, or OUTAGE_MAX_MS has passed. */
const DURING_OUTAGE = 50;
const OUTAGE_MIN_MS = 2000;
const OUTAGE_MAX_MS = 5000;
/**
 * From the burst's last answer to every event at every endpoint, at most. Org's audit consumer
 * takes the credits one transaction each, about 20 a second on the shared 2-core machine, slower
 * than the client makes them: the backlog it has when the burst ends, not the outage, is what
 * this bounds (measured: 8-11 s).
 */
const DRAIN_MS = 30_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One answer of the API the client saw. */
interface Answer {
  status: number;
  retryAfter: string | null;
  duringOutage: boolean;
}

/**
 * At least once across a NATS restart (docs/webhooks.md § Durability; services mode only:
 * embedded mode has no NATS, and its PostgreSQL bus is covered by the kill -9 test of
 * webhooks-durability). The platform runs on a private nats-server (own port, file-backed
 * JetStream in a temporary directory). A client makes 500 Admin-Access credits to an
 * organization wallet through the gateway; each becomes a `transaction.posted` webhook on the
 * path wallet outbox → JetStream → org's audit consumer → webhook queue → 5 endpoints (2500
 * deliveries). NATS is killed (SIGKILL) after some deliveries while the client keeps crediting,
 * and started again on the same port and store. Then every event reaches every endpoint, each
 * counted once by `webhook-id`, every request verified as a Standard Webhooks receiver would,
 * within DRAIN_MS of NATS listening again; the API answered no 5xx but 503 with `Retry-After`
 * (retried as a client would). Deliveries, duplicates and drain time are printed.
 */
describeIf(
  testPlatformMode() !== 'embedded',
  SERVICES_ONLY,
  'NATS restart during a webhook burst',
)('webhooks: durability across a NATS restart', () => {
  const platform = usePlatformOnPrivateNats({ ...WEBHOOK_TEST_ENV, WEBHOOK_TIMEOUT_MS: '2000' });
  const world = webhookWorld(() => platform.stack, 'hook-nats-restart');
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    for (let i = 0; i < ENDPOINTS; i++) {
      const receiver = await WebhookReceiver.start(RECEIVER_HOST);
      receiver.answerAlways(() => ({ status: 204, delayMs: 2 }));
      receivers.push(receiver);
    }
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
  });

  /** The organization wallet of `orgId`, once the wallet service has opened it. */
  const organizationWallet = (owner: Account, orgId: string) =>
    waitFor(
      async () => {
        const res = await platform.stack.request(
          'GET',
          '/v1/api/wallets?entity_type=organization',
          {
            token: owner.token,
          },
        );
        return (res.body?.data as { address_hash: string; entity_id: string }[] | undefined)?.find(
          (w) => w.entity_id === orgId,
        );
      },
      { timeoutMs: 10_000, what: 'the organization wallet' },
    );

  it('delivers every event to every endpoint at least once when NATS restarts mid-burst', async () => {
    const { stack, nats } = platform;
    const owner = await world.signUp('owner');
    const orgId = await world.newOrganization(owner, 'Through the outage');
    const wallet = await organizationWallet(owner, orgId);
    const secrets: string[] = [];
    for (const receiver of receivers) {
      const e = await world.endpoint(owner, orgId, {
        url: receiver.url(),
        eventTypes: ['transaction.*'],
      });
      secrets.push(e.secret);
    }

    let down = false;
    const answers: Answer[] = [];
    const failures: string[] = [];
    let answered = 0;
    /** The transaction ids of the credits made (each is one event's `data.id`). */
    const credited = new Set<string>();
    /** One credit as a client makes it: a 503 with Retry-After is waited out and retried. */
    const credit = async (n: number): Promise<void> => {
      for (let attempt = 0; attempt < 30; attempt++) {
        const res = await stack
          .request('POST', `/v1/api/wallets/${wallet.address_hash}/credits`, {
            token: owner.token,
            headers: { 'admin-access': stack.env.keys.adminAccessToken },
            body: { credit: { amount: 1, description: `burst ${n}`, reference_id: `b-${n}` } },
          })
          .catch((error: Error) => ({ status: 0, headers: new Headers(), body: error.message }));
        const retryAfter = res.headers.get('retry-after');
        answers.push({ status: res.status, retryAfter, duringOutage: down });
        if (res.status === 201) {
          credited.add(String(res.body.credit.id));
          answered++;
          return;
        }
        if (res.status !== 503 || !retryAfter) {
          failures.push(`credit ${n}: ${res.status} ${JSON.stringify(res.body)}`);
          return;
        }
        await sleep(Math.min(Number(retryAfter) * 1000 || 1000, 1000));
      }
      failures.push(`credit ${n}: still 503 after 30 attempts`);
    };
    let next = 0;
    const startedAt = Date.now();
    const burst = Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < EVENTS) await credit(next++);
      }),
    );

    const total = () => receivers.reduce((n, r) => n + r.received.length, 0);
    await waitFor(() => answered >= KILL_AFTER && total() > 0, {
      timeoutMs: 30_000,
      what: `${KILL_AFTER} credits answered and a delivery`,
    });
    await nats.kill(); // SIGKILL, mid-burst
    down = true;
    const killed = { at: Date.now(), answered, delivered: total() };
    await waitFor(
      () =>
        Date.now() - killed.at >= OUTAGE_MIN_MS &&
        (answered >= killed.answered + DURING_OUTAGE || Date.now() - killed.at >= OUTAGE_MAX_MS),
      { timeoutMs: OUTAGE_MAX_MS + 1000, intervalMs: 50, what: 'the outage' },
    );
    const madeDuringOutage = answered - killed.answered;
    await nats.resume(); // same port, same store
    down = false;
    const resumedAt = Date.now();
    const outageMs = resumedAt - killed.at;

    await burst;
    const burstDoneAfter = Date.now() - resumedAt;
    const deadline = Date.now() + DRAIN_MS;
    // every event in org's webhook queue: what crossed NATS (wallet outbox → audit consumer)
    const queued = async () =>
      (
        await stack.apps
          .get('org')!
          .get(DataSource)
          .query(`SELECT count(*)::int AS n FROM webhook_message WHERE organization_id = $1`, [
            orgId,
          ])
      )[0].n as number;
    await waitFor(async () => (await queued()) >= EVENTS, {
      timeoutMs: deadline - Date.now(),
      intervalMs: 100,
      what: 'every event in the webhook queue',
    }).catch(() => undefined); // the counts below say what is missing
    const queuedMs = Date.now() - resumedAt;
    const queuedCount = await queued();
    const everywhere = () =>
      receivers.every(
        (r) => new Set(r.received.map((q) => q.headers['webhook-id'])).size === EVENTS,
      );
    await waitFor(everywhere, {
      timeoutMs: Math.max(deadline - Date.now(), 100),
      what: 'every event at every endpoint',
    }).catch(() => undefined); // the counts below say what is missing
    const drainMs = Date.now() - resumedAt;

    const perEndpoint = receivers.map(
      (r) => new Set(r.received.map((q) => q.headers['webhook-id'])),
    );
    const statuses = answers.reduce<Record<string, number>>((counts, a) => {
      const key = `${a.status}${a.duringOutage ? ' (outage)' : ''}`;
      counts[key] = (counts[key] ?? 0) + 1;
      return counts;
    }, {});
    const duplicates = total() - perEndpoint.reduce((n, ids) => n + ids.size, 0);
    // what the run looked like, for the record
    console.log(
      `NATS killed ${killed.at - startedAt} ms into the burst, after ${killed.answered} credits ` +
        `and ${killed.delivered} deliveries; down ` +
        `${outageMs} ms, ${madeDuringOutage} credits made meanwhile; answers ${JSON.stringify(statuses)}; ` +
        `${total()} deliveries for ${EVENTS * ENDPOINTS} (${duplicates} duplicates); ` +
        `unique per endpoint ${perEndpoint.map((ids) => ids.size).join('/')}; ` +
        `after NATS listened again: burst answered in ${burstDoneAfter} ms, ${queuedCount} events ` +
        `queued in org in ${queuedMs} ms, every delivery made in ${drainMs} ms`,
    );

    expect(failures).toEqual([]);
    expect(queuedCount).toBe(EVENTS);
    expect(madeDuringOutage).toBeGreaterThan(0); // the API kept producing while NATS was down
    const serverErrors = answers.filter((a) => a.status >= 500 || a.status === 0);
    expect(
      serverErrors.filter((a) => a.status !== 503 || !a.retryAfter || !a.duringOutage),
    ).toEqual([]);
    for (const [i, receiver] of receivers.entries()) {
      expect(perEndpoint[i].size).toBe(EVENTS);
      expect(receiver.received.every((q) => q.headers['webhook-id'] === q.event.id)).toBe(true);
      const bad = receiver.received.filter((q) => !WebhookReceiver.verifies(q, secrets[i]));
      expect(bad).toHaveLength(0);
      expect(receiver.received.every((q) => q.event.type === 'transaction.posted')).toBe(true);
      expect(receiver.received.every((q) => q.event.organization_id === orgId)).toBe(true);
    }
    // one event per credit, at every endpoint
    expect(credited.size).toBe(EVENTS);
    for (const receiver of receivers) {
      expect(new Set(receiver.received.map((q) => String(q.event.data.id)))).toEqual(credited);
    }
    // Room beyond jest's 60 s: about 40 s on the shared machine, DRAIN_MS more when events are
    // lost, so that the counts above are printed and checked rather than a timeout.
  }, 120_000);
});
