import { waitFor } from '@wp/testing';
import { PrivatePostgres } from '../support/private-postgres.js';
import { PlatformStack } from '../support/stack.js';

const SEED = 100_000;

/**
 * PostgreSQL restarting under the wallet is the server's temporary state, not a bug
 * (docs/architecture.md § Errors): while the wallet's own database (a private server) shuts
 * down and starts again under a stream of transfers through the gateway, every answer is 201 or
 * 503 `UNAVAILABLE` with `Retry-After` in the JSON:API error body — never 500 — and once it is
 * back, replaying the refused transfers with their idempotency keys leaves the balances exact.
 */
describe('PostgreSQL restart under transfers', () => {
  let postgres: PrivatePostgres;
  let stack: PlatformStack;

  beforeAll(async () => {
    postgres = new PrivatePostgres();
    await postgres.start();
    stack = await PlatformStack.start({}, { databaseServers: { wallet: postgres.serverUrl } });
  });
  afterAll(async () => {
    await stack?.close();
    await postgres?.close();
  });

  const signUp = async (email: string) => {
    await stack.request('POST', '/v1/api/users', {
      body: { username: email, password: 'a long password' },
    });
    const login = await stack.request('POST', '/v1/api/oauth/token', {
      body: { username: email, password: 'a long password' },
    });
    return login.body.data.attributes.accessToken as string;
  };
  const wallets = async (token: string, type: string) => {
    const res = await stack.request('GET', `/v1/api/wallets?entity_type=${type}`, { token });
    return res.status === 200
      ? (res.body.data as { address_hash: string; entity_id: string; balance: number }[])
      : [];
  };
  const balance = async (token: string, address: string) =>
    (await stack.request('GET', `/v1/api/wallets/${address}`, { token })).body.wallet
      .balance as number;

  it('answers 201 or 503 with Retry-After, never 500, and keeps the balances exact', async () => {
    const founder = await signUp('founder@example.com');
    const payee = await signUp('payee@example.com');
    const [payeeWallet] = await waitFor(async () => {
      const list = await wallets(payee, 'user');
      return list.length > 0 && list;
    });
    const org = await stack.request('POST', '/v1/api/organizations', {
      token: founder,
      body: { data: { type: 'organization', attributes: { name: 'Restart Inc' } } },
    });
    const orgWallet = await waitFor(
      async () =>
        (await wallets(founder, 'organization')).find((w) => w.entity_id === org.body.data.id),
      { what: 'the organization wallet' },
    );
    const seeded = await stack.request(
      'POST',
      `/v1/api/wallets/${orgWallet.address_hash}/credits`,
      {
        token: founder,
        headers: { 'admin-access': stack.env.keys.adminAccessToken },
        body: { credit: { amount: SEED, description: 'seed', reference_id: 'seed' } },
      },
    );
    expect(seeded.status).toBe(201);

    let sent = 0;
    const answers: { key: string; status: number; retryAfter: string | null; body: any }[] = [];
    const transfer = (key: string) =>
      stack.request('POST', '/v1/api/wallets/transact', {
        token: founder,
        headers: { 'idempotency-key': key },
        body: {
          transaction: {
            from_wallet: orgWallet.address_hash,
            to_wallet: payeeWallet.address_hash,
            from_asset: 'CREDITS',
            to_asset: 'CREDITS',
            amount: 1,
            description: 'restart',
          },
        },
      });
    let running = true;
    const client = async () => {
      while (running) {
        const key = `restart-${sent++}`;
        const res = await transfer(key);
        answers.push({
          key,
          status: res.status,
          retryAfter: res.headers.get('retry-after'),
          body: res.body,
        });
      }
    };
    const clients = [client(), client(), client(), client()];
    await new Promise((resolve) => setTimeout(resolve, 500));
    await postgres.stop();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await postgres.start();
    await waitFor(() => answers.slice(-8).some((a) => a.status === 201), {
      timeoutMs: 20_000,
      what: 'transfers after the restart',
    });
    running = false;
    await Promise.all(clients);

    const unexpected = answers.filter((a) => a.status !== 201 && a.status !== 503);
    expect(unexpected).toEqual([]);
    const refused = answers.filter((a) => a.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) {
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
      expect(answer.body).toMatchObject({ errors: [{ status: '503', code: 'UNAVAILABLE' }] });
    }

    // A refused transfer moved nothing — or, if only the answer was lost with the connection,
    // moved once: its replay with the same key settles it either way.
    for (const answer of refused) expect((await transfer(answer.key)).status).toBe(201);
    expect(await balance(founder, orgWallet.address_hash)).toBe(SEED - answers.length);
    expect(await balance(payee, payeeWallet.address_hash)).toBe(answers.length);

    const metrics = await (await fetch(`${stack.metricsUrl('wallet')}/metrics`)).text();
    const counted = /^db_unavailable_errors_total(?:\{[^}]*\})? (\d+)/m.exec(metrics);
    expect(Number(counted?.[1])).toBeGreaterThan(0);
  });
});
