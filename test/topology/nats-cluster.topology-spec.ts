import type { NatsConnection } from 'nats';
import { waitFor } from '@wp/testing';
import { PlatformStack } from '../support/stack.js';
import { walletJourneys } from '../support/wallet-journeys.js';
import { NatsCluster } from './support/nats-cluster.js';
import {
  credits,
  namespaceStreams,
  natsClient,
  outboxes,
  outboxRowsPerStream,
  publishDelays,
  streamsCurrent,
  walletsPerOrganization,
} from './support/platform-audit.js';
import { SteadyLoad, tally } from './support/steady-load.js';

/**
 * How long a killed node stays away, ms: longer than the event path needs to recover on the two
 * nodes left (4-16 s measured; docs/operations.md § Production topology under faults), so that
 * an event delivered while it is away proves the cluster carried on without it.
 */
const AWAY_MS = 20_000;
/** Steady load before the first fault and after each node is back, ms. */
const SETTLE_MS = 3000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The prod overlay's NATS topology under faults (docs/operations.md § Production topology under
 * faults): the 3-node JetStream cluster of deploy/k8s/overlays/prod/nats-cluster.yaml with the
 * overlay's stream replicas, the whole platform on it (`NATS_URL` = the three nodes). Under a
 * steady load of wallet transfers and organization creations through the gateway, the leader of
 * the ORG stream is killed (SIGKILL) and brought back, then the leader of the WALLET stream (or
 * another node). Nothing is restarted on the platform's side.
 */
describe('NATS: the production 3-node JetStream cluster under node kills', () => {
  let cluster: NatsCluster;
  let stack: PlatformStack;
  let nc: NatsConnection;
  let load: SteadyLoad;
  let payer: string;
  let payee: string;
  let before: { payer: number; payee: number };
  let ownerToken: string;
  const figures: Record<string, unknown> = {};

  beforeAll(async () => {
    cluster = await NatsCluster.start();
    stack = await PlatformStack.start({
      NATS_URL: cluster.url,
      NATS_STREAM_REPLICAS: String(cluster.settings.streamReplicas),
    });
    nc = await natsClient(cluster.url);
    const j = walletJourneys(() => stack);
    const owner = await j.signUp('owner');
    const admin = await j.signUp('admin');
    const { address } = await j.organization(owner, admin);
    const topUp = await stack.request('POST', `/v1/api/wallets/${address}/credits`, {
      token: owner.token,
      headers: { 'admin-access': stack.env.keys.adminAccessToken },
      body: { credit: { amount: 100_000, description: 'load', reference_id: `load-${address}` } },
    });
    expect(topUp.status).toBe(201);
    payer = address;
    ownerToken = owner.token;
    payee = await j.userWallet(owner);
    // The wallet learns of the ADMIN membership by event: wait until it lets the admin pay.
    await waitFor(async () => (await j.transact(admin, payer, payee)).status === 201, {
      timeoutMs: 15_000,
      what: "the admin allowed to move the organization's money",
    });
    before = { payer: await credits(stack, payer), payee: await credits(stack, payee) };
    load = new SteadyLoad(stack, {
      transferToken: admin.token,
      from: payer,
      to: payee,
      organizationToken: owner.token,
    });
  }, 120_000);

  afterAll(async () => {
    await load?.stop();
    await nc?.close();
    await stack?.close();
    await cluster?.stop();
    // The figures of this run, for docs/operations.md § Production topology under faults.
    process.stdout.write(`topology figures (NATS): ${JSON.stringify(figures, null, 2)}\n`);
  });

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
    const leaderOf = async (suffix: string) => {
      const streams = await namespaceStreams(nc, stack.env.id);
      const leader = streams.find((s) => s.config.name === `${stack.env.id}_${suffix}`)?.cluster
        ?.leader;
      return Number(/nats-(\d+)/.exec(leader ?? '')?.[1] ?? 0);
    };

    load.start();
    const started = Date.now();
    await sleep(SETTLE_MS);
    const faults: Record<string, unknown>[] = [];
    let previous = -1;
    for (const stream of ['ORG', 'WALLET']) {
      let victim = await leaderOf(stream);
      if (victim === previous) victim = (victim + 1) % cluster.size;
      previous = victim;
      const killedAt = Date.now();
      await cluster.kill(victim);
      // The event path while the node is away: an organization's wallet, from its 2xx on.
      const probe = await stack.request('POST', '/v1/api/organizations', {
        token: ownerToken,
        body: { data: { type: 'organization', attributes: { name: 'While a node is away' } } },
      });
      expect(probe.status).toBe(200);
      const probeId = String(probe.body.data.id);
      const probedAt = Date.now();
      const eventPath = waitFor(
        async () => (await walletsPerOrganization(stack, [probeId])).get(probeId) === 1,
        { timeoutMs: 60_000, intervalMs: 50, what: 'the wallet of an organization made meanwhile' },
      ).then(() => Date.now() - probedAt);
      await sleep(AWAY_MS);
      // Delivered on the two nodes left, before the third came back.
      const eventPathMs = await eventPath;
      expect(eventPathMs).toBeLessThan(AWAY_MS);
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
      faults.push({
        killed: `nats-${victim} (leader of ${stream})`,
        answers: tally(load.between(killedAt, end)),
        longestGapMs: {
          transfer: load.longestGap('transfer', killedAt - 1000, end),
          organization: load.longestGap('organization', killedAt - 1000, end),
        },
        walletOfOrganizationMadeMeanwhileMs: eventPathMs,
        // The relay's part of it: org's events of the first seconds after the kill.
        orgEventsPublishedAfter: await publishDelays(stack, 'org', killedAt, killedAt + 5000),
        nodeHealthyAfterMs: healthyMs,
        streamsCurrentAfterMs: currentMs,
      });
    }
    await load.stop();
    const all = tally(load.answers);
    figures.faults = faults;
    figures.load = { ...all, seconds: Math.round((Date.now() - started) / 1000) };

    // Every organization created gets exactly one wallet; every outbox row is published.
    const organizations = load.organizations();
    expect(organizations.length).toBeGreaterThan(20);
    const drainStarted = Date.now();
    await waitFor(
      async () => {
        const o = await outboxes(stack);
        const counts = await walletsPerOrganization(stack, organizations);
        return (
          Object.values(o).every((x) => x.unpublished === 0) &&
          [...counts.values()].every((n) => n >= 1)
        );
      },
      { timeoutMs: 60_000, intervalMs: 200, what: 'every outbox published, every wallet opened' },
    );
    figures.drainedAfterLoadMs = Date.now() - drainStarted;
    await sleep(2000); // a duplicate delivery would land meanwhile
    const counts = await walletsPerOrganization(stack, organizations);
    const notOne = [...counts.entries()].filter(([, n]) => n !== 1);
    figures.organizations = organizations.length;
    figures.walletsNotExactlyOne = notOne.length;
    expect(notOne).toEqual([]);

    // No event published twice: each stream holds exactly the outbox rows of its subjects
    // (Nats-Msg-Id deduplication across a leader change included).
    const rows = await outboxRowsPerStream(stack);
    const streams = await namespaceStreams(nc, stack.env.id);
    const published = Object.fromEntries(
      Object.entries(rows).map(([name, outbox]) => [
        name,
        {
          outbox,
          stream:
            streams.find((s) => s.config.name === `${stack.env.id}_${name}`)?.state.messages ?? 0,
        },
      ]),
    );
    figures.published = published;
    expect(Object.keys(published)).toEqual(expect.arrayContaining(['ORG', 'WALLET']));
    for (const [name, p] of Object.entries(published)) {
      expect({ name, ...p }).toEqual({ name, outbox: p.outbox, stream: p.outbox });
    }

    // Ledger audit: every acknowledged transfer is in the payee's balance, and what the payer
    // lost is what the payee got.
    const acknowledged = load.answers.filter(
      (a) => a.kind === 'transfer' && a.status === 201,
    ).length;
    const unanswered = load.answers.filter((a) => a.kind === 'transfer' && a.status !== 201).length;
    const received = (await credits(stack, payee)) - before.payee;
    const spent = before.payer - (await credits(stack, payer));
    figures.ledger = { acknowledged, unanswered, received, spent };
    expect(received).toBeGreaterThanOrEqual(acknowledged);
    expect(received).toBeLessThanOrEqual(acknowledged + unanswered);
    expect(spent).toBe(received);

    // Only retryable refusals: a 503 with Retry-After, nothing else.
    expect(all.failed).toEqual({});
    expect(all.ok).toBeGreaterThan(100);

    // The apps carried on without a restart: an organization created now gets its wallet fast.
    const j = walletJourneys(() => stack);
    const late = await j.signUp('late');
    const t0 = Date.now();
    const created = await stack.request('POST', '/v1/api/organizations', {
      token: late.token,
      body: { data: { type: 'organization', attributes: { name: 'After the faults' } } },
    });
    expect(created.status).toBe(200);
    await waitFor(
      async () =>
        (await walletsPerOrganization(stack, [String(created.body.data.id)])).get(
          String(created.body.data.id),
        ) === 1,
      { timeoutMs: 5000, intervalMs: 20, what: 'the wallet of an organization made after' },
    );
    figures.eventPathAfterFaultsMs = Date.now() - t0;
  }, 300_000);
});
