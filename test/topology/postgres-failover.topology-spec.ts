import { waitFor } from '@wp/testing';
import { PlatformStack } from '../support/stack.js';
import { walletJourneys } from '../support/wallet-journeys.js';
import { credits, outboxes, walletsPerOrganization } from './support/platform-audit.js';
import { PostgresPair } from './support/postgres-pair.js';
import { SteadyLoad, tally, type LoadAnswer } from './support/steady-load.js';
import { SwitchableProxy } from './support/switchable-proxy.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Steady load before the failover and after the platform serves again, ms. */
const SETTLE_MS = 3000;

/**
 * PostgreSQL failover under load (docs/operations.md § Production topology under faults): every
 * service's database on one primary with a synchronous streaming replica, reached through one
 * stable address (a switchable TCP proxy, the stand-in for a Kubernetes Service). Under a steady
 * load of transfers and organization creations the replica is promoted, the old primary killed
 * (SIGKILL) and the proxy moved: requests in the window are refused with a retryable 503, the
 * platform serves again by itself, and the ledger still holds every acknowledged transfer.
 */
describe('PostgreSQL: promoting the synchronous replica under load', () => {
  let pair: PostgresPair;
  let proxy: SwitchableProxy;
  let stack: PlatformStack;
  let load: SteadyLoad;
  let payer: string;
  let payee: string;
  let before: { payer: number; payee: number };
  const figures: Record<string, unknown> = {};

  beforeAll(async () => {
    pair = await PostgresPair.start();
    proxy = await SwitchableProxy.start(pair.primary.port);
    const server = `postgres://postgres@127.0.0.1:${proxy.port}`;
    stack = await PlatformStack.start(
      {},
      { databaseServers: { auth: server, org: server, wallet: server, analytics: server } },
    );
    const j = walletJourneys(() => stack);
    const owner = await j.signUp('owner');
    const admin = await j.signUp('admin');
    const { address } = await j.organization(owner, admin);
    payer = address;
    payee = await j.userWallet(owner);
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
  }, 180_000);

  afterAll(async () => {
    await load?.stop();
    await stack?.close();
    await proxy?.close();
    await pair?.stop();
    process.stdout.write(`topology figures (PostgreSQL): ${JSON.stringify(figures, null, 2)}\n`);
  });

  it('refuses only with a retryable 503 in the window, recovers by itself and loses no acknowledged transfer', async () => {
    expect(await pair.streaming()).toBe(true);
    load.start();
    await sleep(SETTLE_MS);

    const promotedAt = Date.now();
    await pair.promote();
    const promotedMs = Date.now() - promotedAt;
    await pair.kill(pair.primary);
    proxy.switchTo(pair.replica.port);
    const switchedAt = Date.now();
    const firstOk = (kind: LoadAnswer['kind']) =>
      load.answers.find((a) => a.kind === kind && a.sentAt >= switchedAt && a.status < 300);
    await waitFor(() => !!firstOk('transfer') && !!firstOk('organization'), {
      timeoutMs: 60_000,
      intervalMs: 20,
      what: 'transfers and organization creations answered 2xx again',
    });
    const recovered = {
      transfer: firstOk('transfer')!.endedAt - switchedAt,
      organization: firstOk('organization')!.endedAt - switchedAt,
    };
    await sleep(SETTLE_MS);
    await load.stop();

    const all = tally(load.answers);
    figures.failover = {
      promoteMs: promotedMs,
      recoveredAfterSwitchMs: recovered,
      window: tally(
        load.between(promotedAt - 1000, switchedAt + Math.max(...Object.values(recovered))),
      ),
      longestGapMs: {
        transfer: load.longestGap('transfer', promotedAt - 1000, Date.now()),
        organization: load.longestGap('organization', promotedAt - 1000, Date.now()),
      },
    };
    figures.load = all;
    expect(all.failed).toEqual({});
    expect(all.ok).toBeGreaterThan(50);

    // Events: every outbox row published (again, from the new primary), one wallet per organization.
    const organizations = load.organizations();
    await waitFor(
      async () =>
        Object.values(await outboxes(stack)).every((o) => o.unpublished === 0) &&
        [...(await walletsPerOrganization(stack, organizations)).values()].every((n) => n >= 1),
      { timeoutMs: 60_000, intervalMs: 200, what: 'every outbox published, every wallet opened' },
    );
    await sleep(2000);
    const notOne = [...(await walletsPerOrganization(stack, organizations)).entries()].filter(
      ([, n]) => n !== 1,
    );
    figures.organizations = organizations.length;
    figures.walletsNotExactlyOne = notOne.length;
    expect(notOne).toEqual([]);

    // Ledger audit on the promoted server: no acknowledged transfer lost, nothing made up.
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
  }, 300_000);
});
