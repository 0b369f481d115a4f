import type { NatsConnection } from 'nats';
import { waitFor } from '@wp/testing';
import { PlatformStack } from '../support/stack.js';
import { auditEvents, expectNoEventLostOrDuplicated } from './support/event-audit.js';
import { NatsCluster } from './support/nats-cluster.js';
import { expectLedgerExact, PaidOrganization } from './support/paid-organization.js';
import {
  namespaceStreams,
  natsClient,
  publishDelays,
  streamsCurrent,
} from './support/platform-audit.js';
import { tally } from './support/steady-load.js';

/**
 * The longest an event made right after a node is killed may take to reach its consumer, ms: the
 * stream's election (nats-server's followers wait 4-9 s) and a pull renewal (2 s) with margin
 * (docs/operations.md § Production topology under faults has the figures it holds).
 */
const EVENT_PATH_BOUND_MS = 15_000;
/**
 * The same after a graceful stop (SIGTERM, lame-duck mode), ms: the node hands its leaderships
 * over before it goes, so events are not held by an election (55 ms-2.1 s measured).
 */
const GRACEFUL_EVENT_PATH_BOUND_MS = 5000;
/**
 * How long a node stays in lame-duck mode before it is sent SIGTERM and then killed, ms: inside
 * its default grace period (10 s), during which it closes no client (Kubernetes would wait up to
 * the overlay's terminationGracePeriodSeconds, 60 s, before its SIGKILL).
 */
const LAME_DUCK_MS = 5000;
/** Steady load before the first fault and after each node is back, ms. */
const SETTLE_MS = 3000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Stop = 'SIGKILL' | 'SIGTERM' | 'lame duck';

/**
 * The prod overlay's NATS topology under faults (docs/operations.md § Production topology under
 * faults): the 3-node JetStream cluster of deploy/k8s/overlays/prod/nats-cluster.yaml with the
 * overlay's stream replicas, the whole platform on it (`NATS_URL` = the three nodes). Under a
 * steady load of wallet transfers and organization creations through the gateway, the leader of
 * the ORG stream is killed (SIGKILL) and brought back, then the leader of the WALLET stream (or
 * another node); then the same two nodes are stopped gracefully: SIGTERM, and lame-duck mode as
 * the overlay's preStop hook does it. Nothing is restarted on the platform's side.
 */
describe('NATS: the production 3-node JetStream cluster under node stops', () => {
  let cluster: NatsCluster;
  let stack: PlatformStack;
  let nc: NatsConnection;
  let paid: PaidOrganization;
  const figures: Record<string, unknown> = {};

  beforeAll(async () => {
    cluster = await NatsCluster.start();
    stack = await PlatformStack.start({
      NATS_URL: cluster.url,
      NATS_STREAM_REPLICAS: String(cluster.settings.streamReplicas),
    });
    nc = await natsClient(cluster.url);
    paid = await PaidOrganization.setUp(stack);
  }, 120_000);

  afterAll(async () => {
    await paid?.load.stop();
    await nc?.close();
    await stack?.close();
    await cluster?.stop();
    // The figures of this run, for docs/operations.md § Production topology under faults.
    process.stdout.write(`topology figures (NATS): ${JSON.stringify(figures, null, 2)}\n`);
  });

  const leaderOf = async (suffix: string) => {
    const streams = await namespaceStreams(nc, stack.env.id);
    const leader = streams.find((s) => s.config.name === `${stack.env.id}_${suffix}`)?.cluster
      ?.leader;
    return Number(/nats-(\d+)/.exec(leader ?? '')?.[1] ?? 0);
  };

  /**
   * Stops the leader of `stream` (another node than `previous`) as `how` says, keeps it away
   * as long as its event-path bound, brings it back and waits for every stream to be current again; asserts that
   * every answer meanwhile was 2xx or a retryable 503 and that an event made right after the
   * stop was delivered while the node was away. Returns the fault's figures.
   */
  const fault = async (stream: string, how: Stop, previous: number) => {
    const { load } = paid;
    // Away as long as the bound: an event delivered meanwhile came without the node.
    const awayMs = how === 'SIGKILL' ? EVENT_PATH_BOUND_MS : GRACEFUL_EVENT_PATH_BOUND_MS;
    let victim = await leaderOf(stream);
    if (victim === previous) victim = (victim + 1) % cluster.size;
    const stoppedAt = Date.now();
    const extra: Record<string, unknown> = {};
    if (how === 'lame duck') {
      // The preStop hook, then the kubelet's SIGTERM (ignored in lame-duck mode), then its SIGKILL.
      cluster.lameDuck(victim);
      const duringLameDuck = paid.eventPath(`While nats-${victim} is a lame duck`);
      await sleep(LAME_DUCK_MS);
      cluster.signal(victim, 'SIGTERM');
      await sleep(500);
      extra.runningAfterSigtermInLameDuck = cluster.running(victim);
      await cluster.kill(victim, 'SIGKILL');
      extra.walletOfOrganizationMadeInLameDuckMs = await duringLameDuck;
      expect(extra.walletOfOrganizationMadeInLameDuckMs).toBeLessThan(LAME_DUCK_MS);
    } else {
      await cluster.kill(victim, how);
    }
    const goneAt = Date.now();
    // The event path while the node is away: an organization's wallet, from its 2xx on.
    const eventPath = paid.eventPath(`While nats-${victim} is away`);
    await sleep(awayMs);
    const eventPathMs = await eventPath;
    expect(eventPathMs).toBeLessThan(awayMs);
    const resumedAt = Date.now();
    await cluster.resume(victim);
    const healthyMs = Date.now() - resumedAt;
    await waitFor(() => streamsCurrent(nc, stack.env.id), {
      timeoutMs: 60_000,
      intervalMs: 100,
      what: `every stream current again after nats-${victim} came back`,
    });
    const currentMs = Date.now() - resumedAt;
    await sleep(SETTLE_MS);
    const end = Date.now();
    const answers = tally(load.between(stoppedAt, end));
    expect(answers.failed).toEqual({});
    return {
      victim,
      figures: {
        stopped: `nats-${victim} (leader of ${stream}) by ${how}`,
        answers,
        longestGapMs: {
          transfer: load.longestGap('transfer', stoppedAt - 1000, end),
          organization: load.longestGap('organization', stoppedAt - 1000, end),
        },
        ...extra,
        walletOfOrganizationMadeMeanwhileMs: eventPathMs,
        // The relay's part of it: org's events of the first seconds after the stop.
        orgEventsPublishedAfter: await publishDelays(stack, 'org', goneAt, goneAt + 5000),
        nodeHealthyAfterMs: healthyMs,
        streamsCurrentAfterMs: currentMs,
      },
    };
  };

  /** Runs `faults` under the load, stops it and audits events and ledger. */
  const phase = async (name: string, faults: [string, Stop][]) => {
    const { load } = paid;
    load.start();
    const started = Date.now();
    const sentBefore = load.answers.length;
    await sleep(SETTLE_MS);
    const done: Record<string, unknown>[] = [];
    let previous = -1;
    for (const [stream, how] of faults) {
      const f = await fault(stream, how, previous);
      previous = f.victim;
      done.push(f.figures);
    }
    await load.stop();
    const answers = tally(load.answers.slice(sentBefore));
    // Every organization created so far gets exactly one wallet; every outbox row is published
    // once; every acknowledged transfer is in the ledger.
    const events = await auditEvents(stack, nc, load.organizations());
    const ledger = await paid.ledger();
    figures[name] = {
      faults: done,
      load: { ...answers, seconds: Math.round((Date.now() - started) / 1000) },
      events: { ...events, walletsNotExactlyOne: events.walletsNotExactlyOne.length },
      ledger,
    };
    expect(answers.failed).toEqual({});
    expect(answers.ok).toBeGreaterThan(100);
    expectNoEventLostOrDuplicated(events);
    expectLedgerExact(ledger);
  };

  it('reads the cluster from the prod overlay and creates every stream with its replicas', async () => {
    expect(cluster.settings).toMatchObject({ nodes: 3, streamReplicas: 3 });
    expect(cluster.size).toBe(3);
    const names = [`${stack.env.id}_ORG`, `${stack.env.id}_WALLET`];
    const streams = await waitFor(
      async () => {
        const all = await namespaceStreams(nc, stack.env.id);
        return names.every((n) => all.some((s) => s.config.name === n)) && all;
      },
      { timeoutMs: 15_000, what: 'the ORG and WALLET streams' },
    );
    for (const s of streams) {
      expect({ stream: s.config.name, replicas: s.config.num_replicas }).toEqual({
        stream: s.config.name,
        replicas: 3,
      });
    }
    await waitFor(() => streamsCurrent(nc, stack.env.id), {
      timeoutMs: 15_000,
      what: 'every stream with 3 current replicas',
    });
  });

  it('loses no event, duplicates none and fails no request but with a retryable 503 while two nodes are killed in turn', async () => {
    await phase('killed', [
      ['ORG', 'SIGKILL'],
      ['WALLET', 'SIGKILL'],
    ]);
  }, 300_000);

  it('loses no event, duplicates none and fails no request while two nodes are stopped gracefully: SIGTERM, then lame-duck mode', async () => {
    await phase('graceful', [
      ['ORG', 'SIGTERM'],
      ['WALLET', 'lame duck'],
    ]);
  }, 300_000);

  it('carries on without a restart of the apps: an organization made after the faults gets its wallet fast', async () => {
    figures.eventPathAfterFaultsMs = await paid.eventPath('After the faults', 5000);
  });
});
