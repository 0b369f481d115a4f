import type { NatsConnection } from 'nats';
import { waitFor } from '@wp/testing';
import { PlatformStack } from '../support/stack.js';
import { auditEvents, expectNoEventLostOrDuplicated } from './support/event-audit.js';
import { NatsCluster } from './support/nats-cluster.js';
import { expectLedgerExact, PaidOrganization } from './support/paid-organization.js';
import { natsClient, streamsCurrent } from './support/platform-audit.js';
import { tally } from './support/steady-load.js';
import { SwitchableProxy } from './support/switchable-proxy.js';

/** How long the node behind the address stays away, ms (the event path's bound too). */
const AWAY_MS = 15_000;
/** Steady load before the fault and after the node is back, ms. */
const SETTLE_MS = 3000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The prod overlay's NATS cluster behind a single address (docs/operations.md § Production
 * topology under faults): the apps get one `NATS_URL`, a TCP proxy in front of nats-0 — what
 * `nats://nats:4222` (the overlay's ClusterIP Service) is to a client whose connection landed on
 * that pod. nats-0 is killed and the proxy is left pointing at it (the Service's endpoint not yet
 * removed): the clients must find the other nodes themselves, from the `connect_urls` every
 * server announces in its INFO, and the platform must carry on as with the three URLs listed.
 */
describe('NATS: one Service address in front of the 3-node cluster', () => {
  let cluster: NatsCluster;
  let proxy: SwitchableProxy;
  let stack: PlatformStack;
  let nc: NatsConnection;
  let paid: PaidOrganization;
  const figures: Record<string, unknown> = {};

  beforeAll(async () => {
    cluster = await NatsCluster.start();
    proxy = await SwitchableProxy.start(cluster.clientPort(0));
    const url = `nats://127.0.0.1:${proxy.port}`;
    stack = await PlatformStack.start({
      NATS_URL: url,
      NATS_STREAM_REPLICAS: String(cluster.settings.streamReplicas),
    });
    // The test's own client also knows only the address, as the apps do.
    nc = await natsClient(url);
    paid = await PaidOrganization.setUp(stack);
  }, 120_000);

  afterAll(async () => {
    await paid?.load.stop();
    await nc?.close();
    await stack?.close();
    await proxy?.close();
    await cluster?.stop();
    process.stdout.write(
      `topology figures (NATS, one address): ${JSON.stringify(figures, null, 2)}\n`,
    );
  });

  it('survives the loss of the node behind the address: the clients move to the nodes the cluster announced', async () => {
    const { load } = paid;
    await waitFor(() => streamsCurrent(nc, stack.env.id), {
      timeoutMs: 15_000,
      what: 'every stream with 3 current replicas',
    });
    // Every node announces the cluster's client URLs: that is what a client learns beyond the address.
    const announced: string[] = nc.info?.connect_urls ?? [];
    figures.announcedToClients = announced;
    expect(announced.length).toBeGreaterThanOrEqual(cluster.size - 1);
    expect(nc.info?.server_name).toBe('nats-0');

    load.start();
    await sleep(SETTLE_MS);
    const killedAt = Date.now();
    await cluster.kill(0);
    const eventPath = paid.eventPath('While the node behind the address is away');
    await sleep(AWAY_MS);
    const eventPathMs = await eventPath;
    // The test's client too is now on another node, reached by an announced URL.
    const movedTo = nc.info?.server_name;
    await cluster.resume(0);
    await waitFor(() => streamsCurrent(nc, stack.env.id), {
      timeoutMs: 60_000,
      intervalMs: 100,
      what: 'every stream current again after nats-0 came back',
    });
    await sleep(SETTLE_MS);
    const end = Date.now();
    await load.stop();

    const events = await auditEvents(stack, nc, load.organizations());
    const ledger = await paid.ledger();
    const answers = tally(load.answers);
    figures.fault = {
      answersFromTheKill: tally(load.between(killedAt, end)),
      longestGapMs: {
        transfer: load.longestGap('transfer', killedAt - 1000, end),
        organization: load.longestGap('organization', killedAt - 1000, end),
      },
      walletOfOrganizationMadeMeanwhileMs: eventPathMs,
      testClientMovedTo: movedTo,
    };
    figures.load = answers;
    figures.events = { ...events, walletsNotExactlyOne: events.walletsNotExactlyOne.length };
    figures.ledger = ledger;
    expect(eventPathMs).toBeLessThan(AWAY_MS);
    expect(movedTo).not.toBe('nats-0');
    expect(answers.failed).toEqual({});
    expect(answers.ok).toBeGreaterThan(100);
    expectNoEventLostOrDuplicated(events);
    expectLedgerExact(ledger);
  }, 300_000);
});
