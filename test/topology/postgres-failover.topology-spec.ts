import { waitFor } from '@wp/testing';
import { PlatformStack } from '../support/stack.js';
import { outboxes, query, walletsPerOrganization } from './support/platform-audit.js';
import { expectLedgerExact, PaidOrganization } from './support/paid-organization.js';
import { PostgresPair } from './support/postgres-pair.js';
import { tally, type LoadAnswer } from './support/steady-load.js';
import { SwitchableProxy } from './support/switchable-proxy.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Steady load before the failover and after the platform serves again, ms. */
const SETTLE_MS = 3000;

/**
 * PostgreSQL failover under load (docs/operations.md § Production topology under faults): every
 * service's database on one primary with a streaming replica, reached through one stable address
 * (a switchable TCP proxy, the stand-in for a Kubernetes Service). Under a steady load of
 * transfers and organization creations the replica is promoted and the proxy moved:
 *
 * - **synchronous** replication (production's): the replica is promoted, the old primary killed
 *   (SIGKILL, fenced) and the proxy moved. Requests in the window are refused with a retryable
 *   503, the platform serves again by itself, and the ledger holds every acknowledged transfer.
 * - **asynchronous** replication (`synchronous_standby_names = ''`): the primary crashes
 *   (SIGKILL), then the replica is promoted and the proxy moved. The same, except that the
 *   ledger audit counts the acknowledged transfers the promoted server lacks (what asynchronous
 *   replication risks) instead of requiring none.
 */
describe.each([
  { mode: 'synchronous', synchronous: true },
  { mode: 'asynchronous', synchronous: false },
])('PostgreSQL: failing over to the $mode replica under load', ({ mode, synchronous }) => {
  let pair: PostgresPair;
  let proxy: SwitchableProxy;
  let stack: PlatformStack;
  let paid: PaidOrganization;
  const figures: Record<string, unknown> = {};

  beforeAll(async () => {
    pair = await PostgresPair.start({ synchronous });
    proxy = await SwitchableProxy.start(pair.primary.port);
    const server = `postgres://postgres@127.0.0.1:${proxy.port}`;
    stack = await PlatformStack.start(
      {},
      { databaseServers: { auth: server, org: server, wallet: server, analytics: server } },
    );
    paid = await PaidOrganization.setUp(stack);
  }, 180_000);

  afterAll(async () => {
    await paid?.load.stop();
    await stack?.close();
    await proxy?.close();
    await pair?.stop();
    process.stdout.write(
      `topology figures (PostgreSQL, ${mode}): ${JSON.stringify(figures, null, 2)}\n`,
    );
  });

  it('refuses only with a retryable 503 in the window, recovers by itself and audits the ledger', async () => {
    const { load } = paid;
    expect(await pair.streaming()).toBe(true);
    load.start();
    await sleep(SETTLE_MS);

    const failoverAt = Date.now();
    if (synchronous) {
      await pair.promote();
      figures.promoteMs = Date.now() - failoverAt;
      await pair.kill(pair.primary);
    } else {
      // The primary crashes first: whatever it acknowledged and had not streamed yet is gone.
      await pair.kill(pair.primary);
      const promotedAt = Date.now();
      await pair.promote();
      figures.promoteMs = Date.now() - promotedAt;
    }
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
      recoveredAfterSwitchMs: recovered,
      window: tally(
        load.between(failoverAt - 1000, switchedAt + Math.max(...Object.values(recovered))),
      ),
      longestGapMs: {
        transfer: load.longestGap('transfer', failoverAt - 1000, Date.now()),
        organization: load.longestGap('organization', failoverAt - 1000, Date.now()),
      },
    };
    figures.load = all;
    expect(all.failed).toEqual({});
    expect(all.ok).toBeGreaterThan(50);

    // Organizations acknowledged that the promoted server lacks (asynchronous replication only).
    const acknowledged = load.organizations();
    const present = new Set(
      (
        await query<{ id: string }>(
          stack,
          'org',
          `SELECT id FROM organization WHERE id = ANY($1)`,
          [acknowledged],
        )
      ).map((r) => String(r.id)),
    );
    const organizations = acknowledged.filter((id) => present.has(id));
    figures.organizationsMissing = acknowledged.length - organizations.length;

    // Events: every outbox row published (again, from the new primary), in both cases.
    await waitFor(
      async () => Object.values(await outboxes(stack)).every((o) => o.unpublished === 0),
      { timeoutMs: 60_000, intervalMs: 200, what: 'every outbox published' },
    ).catch(async (error: Error) => {
      throw new Error(`${error.message}: ${JSON.stringify(await outboxes(stack))}`);
    });
    // One wallet per organization. Asynchronously, a wallet the wallet service committed on the
    // old primary, after which it acknowledged the event to NATS, can be lost with the primary
    // (the event is not delivered again): counted, not required.
    const opened = async () =>
      [...(await walletsPerOrganization(stack, organizations)).values()].every((n) => n >= 1);
    if (synchronous) {
      await waitFor(opened, { timeoutMs: 60_000, intervalMs: 200, what: 'every wallet opened' });
    } else {
      await waitFor(opened, { timeoutMs: 20_000, intervalMs: 200, what: '' }).catch(
        () => undefined,
      );
    }
    await sleep(2000);
    const wallets = [...(await walletsPerOrganization(stack, organizations)).entries()];
    figures.organizations = organizations.length;
    figures.walletsMissing = wallets.filter(([, n]) => n === 0).length;
    figures.walletsNotExactlyOne = wallets.filter(([, n]) => n !== 1).length;
    // never two wallets for one organization; none missing when replication is synchronous
    expect(wallets.filter(([, n]) => n > 1)).toEqual([]);
    if (synchronous) expect(figures.walletsMissing).toBe(0);

    // Ledger audit on the promoted server.
    const ledger = await paid.ledger();
    figures.ledger = ledger;
    figures.acknowledgedTransfersMissing = Math.max(0, ledger.acknowledged - ledger.received);
    if (synchronous) {
      expectLedgerExact(ledger);
      expect(figures.organizationsMissing).toBe(0);
    } else {
      // Whatever was lost, it was lost whole: the payer's debit with the payee's credit.
      expect(ledger.spent).toBe(ledger.received);
      expect(ledger.received).toBeLessThanOrEqual(ledger.acknowledged + ledger.unanswered);
    }
  }, 300_000);
});
