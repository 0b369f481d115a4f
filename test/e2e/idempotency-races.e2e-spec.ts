import { describeIf, SERVICES_ONLY, testPlatformMode } from '@wp/testing';
import { useReplicatedPlatform } from '../support/replicated-platform.js';
import { walletJourneys, type Account } from '../support/wallet-journeys.js';

jest.setTimeout(240_000);

const PAIRS = 300;
const LANES = 12;

type Answer = { status: number; body: any; headers: Headers };

/**
 * Sends `count` pairs of requests, `lanes` pairs at a time; `pair(i)` sends both requests of
 * pair i at once and `check` says what is wrong with their answers (nothing: empty). Returns
 * how often each status came back and the first problems.
 */
async function racePairs(
  count: number,
  lanes: number,
  pair: (i: number) => Promise<Answer[]>,
  check: (answers: Answer[], i: number) => string[],
): Promise<{ statuses: Record<number, number>; problems: string[] }> {
  const statuses: Record<number, number> = {};
  const problems: string[] = [];
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const i = next++;
      const answers = await pair(i);
      for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
      problems.push(...check(answers, i).map((p) => `pair ${i}: ${p}`));
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return { statuses, problems: problems.slice(0, 5) };
}

/** One 201 and one replay of it: same body, `Idempotent-Replayed: true` on exactly one. */
function originalAndReplay([a, b]: Answer[]): string[] {
  if (a.status !== 201 || b.status !== 201) {
    return [`${a.status} ${JSON.stringify(a.body)} / ${b.status} ${JSON.stringify(b.body)}`];
  }
  const replayed = [a, b].filter((r) => r.headers.get('idempotent-replayed') === 'true').length;
  const problems = replayed === 1 ? [] : [`${replayed} replayed`];
  if (JSON.stringify(a.body) !== JSON.stringify(b.body)) problems.push('bodies differ');
  return problems;
}

/** One success (`won`) and one refusal with `code` (`lost`), in either order. */
function oneWins(won: number[], lost: number, code: string) {
  return (answers: Answer[]): string[] => {
    const winners = answers.filter((a) => won.includes(a.status));
    const losers = answers.filter((a) => a.status === lost && a.body?.errors?.[0]?.code === code);
    return winners.length === 1 && losers.length === 1
      ? []
      : [answers.map((a) => `${a.status} ${JSON.stringify(a.body).slice(0, 200)}`).join(' / ')];
  };
}

/**
 * The same command sent to two processes of a service at once (docs/architecture.md § Deadlocks
 * and serialization failures; docs/wallet.md § Idempotency). Under load each wallet process runs
 * group commits, which lock their balance rows before they insert their journal entries; the
 * other process's single movement holds the key's journal entry and waits for those rows:
 * PostgreSQL breaks the cycle with `40P01`, which was answered 500 in 1-3 % of the pairs. The
 * transaction is now retried and the retry replays the committed original. The other commands
 * that claim a unique key (a reference id, a wallet per entity and purpose, a username, one
 * pending invitation per email, a transfer request's state) answer one success and the
 * documented refusal, never a 500.
 */
describe('the same command on two processes at once', () => {
  const platform = useReplicatedPlatform();
  const journeys = walletJourneys(() => platform.stack);
  let payer: Account;
  let source: string;
  let authB: string;
  const targets: string[] = [];
  const send = (method: string, path: string, body: unknown, headers = {}, baseUrl?: string) =>
    platform.stack.request(method, path, { token: payer.token, body, headers, baseUrl });
  const both = (method: string, path: string, body: unknown, headers = {}) =>
    Promise.all([
      send(method, path, body, headers),
      send(method, path, body, headers, platform.walletB),
    ]);

  beforeAll(async () => {
    payer = await journeys.signUp('payer');
    source = await journeys.userWallet(payer);
    await journeys.credit(source, payer, 1_000_000);
    for (let i = 0; i < 4; i++) {
      targets.push(await journeys.userWallet(await journeys.signUp(`payee${i}`)));
    }
    // Each process opens its database connections on first use; a cold burst of them on a busy
    // machine can exceed the pool's connect timeout (an honest 503, but not this test's subject).
    for (let round = 0; round < 2; round++) {
      await Promise.all(
        Array.from({ length: LANES }, () => both('GET', `/v1/api/wallets/${source}`, undefined)),
      );
    }
  });

  it(`transact with one Idempotency-Key: ${PAIRS} pairs, each 201 twice, one replayed`, async () => {
    let moved = 0;
    const outcome = await racePairs(
      PAIRS,
      LANES,
      (i) => {
        const amount = 1 + (i % 7) / 100;
        moved += amount;
        const transaction = {
          from_wallet: source,
          to_wallet: targets[i % targets.length],
          from_asset: 'CREDITS',
          to_asset: 'CREDITS',
          amount,
          description: `pair ${i}`,
        };
        return both(
          'POST',
          '/v1/api/wallets/transact',
          { transaction },
          {
            'idempotency-key': `race-${i}`,
          },
        );
      },
      originalAndReplay,
    );
    expect(outcome).toEqual({ statuses: { 201: 2 * PAIRS }, problems: [] });
    const wallet = await send('GET', `/v1/api/wallets/${source}`, undefined);
    expect(wallet.body.wallet.balance).toBeCloseTo(1_000_000 - moved, 6);
  });

  it('debits and credits with one reference_id: each 201 twice, one replayed', async () => {
    const admin = { 'admin-access': platform.stack.env.keys.adminAccessToken };
    const before = (await send('GET', `/v1/api/wallets/${source}`, undefined)).body.wallet.balance;
    const outcome = await racePairs(
      80,
      8,
      (i) =>
        i % 2 === 0
          ? both('POST', `/v1/api/wallets/${source}/debits`, {
              debit: { amount: 2, description: 'race', reference_id: `debit-${i}` },
            })
          : both(
              'POST',
              `/v1/api/wallets/${source}/credits`,
              { credit: { amount: 1, description: 'race', reference_id: `credit-${i}` } },
              admin,
            ),
      originalAndReplay,
    );
    expect(outcome).toEqual({ statuses: { 201: 160 }, problems: [] });
    const after = (await send('GET', `/v1/api/wallets/${source}`, undefined)).body.wallet.balance;
    expect(after).toBeCloseTo(before - 40 * 2 + 40 * 1, 6);
  });

  it('create_entity_wallet for one entity and purpose: one 201, one 409', async () => {
    const outcome = await racePairs(
      40,
      8,
      (i) =>
        both('POST', '/v1/api/wallets/create_entity_wallet', {
          entity_wallet: {
            entity_type: 'user',
            entity_id: payer.id,
            entity_name: 'race',
            purpose: `race_${i}`,
          },
        }),
      oneWins([201], 409, 'WALLET_ALREADY_EXISTS'),
    );
    expect(outcome).toEqual({ statuses: { 201: 40, 409: 40 }, problems: [] });
  });

  it('rejecting one transfer request on both processes: one 200, one 409', async () => {
    const outcome = await racePairs(
      30,
      6,
      async (i) => {
        const created = await send('POST', '/v1/api/wallet_transfers', {
          transfer: { from_wallet: source, to_wallet: targets[i % 4], amount: 1 },
        });
        return both(
          'POST',
          `/v1/api/wallet_transfers/${created.body.transfer.id}/reject`,
          undefined,
        );
      },
      oneWins([200], 409, 'TRANSFER_NOT_PENDING'),
    );
    expect(outcome).toEqual({ statuses: { 200: 30, 409: 30 }, problems: [] });
  });

  // Services mode only: in embedded mode an auth and an org replica more (each with its pools
  // on the platform database and pg-boss) exceed the 100 connections of the PostgreSQL the tests
  // share, and the answers turn into 503 "too many clients". The claims are the same SQL in both
  // modes (a unique index with ON CONFLICT, the organization row lock); the mode changes only
  // the stores and the transports.
  describeIf(
    testPlatformMode() !== 'embedded',
    SERVICES_ONLY,
    'auth and org replicas on the shared PostgreSQL',
  )('auth and org', () => {
    beforeAll(async () => {
      authB = await platform.stack.startReplica('auth');
    });

    it('registering one username on two auth processes: one account, one 409', async () => {
      const outcome = await racePairs(
        30,
        6,
        (i) => {
          const body = { username: `twice-${i}@race.example.com`, password: 'a long password' };
          return Promise.all([
            platform.stack.request('POST', '/v1/api/users', { body }),
            platform.stack.request('POST', '/v1/api/users', { body, baseUrl: authB }),
          ]);
        },
        oneWins([200, 201], 409, 'USERNAME_TAKEN'),
      );
      expect(outcome.problems).toEqual([]);
      expect(outcome.statuses[409]).toBe(30);
    });

    it('inviting one email through two org processes: one invitation, one 409', async () => {
      const org = await send('POST', '/v1/api/organizations', {
        data: { type: 'organization', attributes: { name: 'Racing inviters' } },
      });
      const path = `/v1/api/organizations/${org.body.data.id}/invitations`;
      const outcome = await racePairs(
        30,
        6,
        (i) => {
          const body = {
            data: {
              type: 'membershipInvitation',
              attributes: { email: `inv-${i}@race.example.com` },
            },
          };
          return Promise.all([
            send('POST', path, body),
            send('POST', path, body, {}, platform.orgB),
          ]);
        },
        oneWins([201], 409, 'INVITATION_ALREADY_PENDING'),
      );
      expect(outcome).toEqual({ statuses: { 201: 30, 409: 30 }, problems: [] });
    });
  });
});
