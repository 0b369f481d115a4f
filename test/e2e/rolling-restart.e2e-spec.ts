import { waitFor } from '@wp/testing';
import { ServiceProcess } from '../support/service-process.js';
import { PlatformStack } from '../support/stack.js';
import { walletJourneys, type Account } from '../support/wallet-journeys.js';

jest.setTimeout(240_000);

/**
 * A rolling restart of a service with two replicas behind the gateway, under load
 * (docs/operations.md § Shutdown; docs/architecture.md § Upstream failures at the gateway): each
 * wallet process in turn gets SIGTERM — it drains (503 + `Connection: close` to new requests),
 * stops listening, exits — and a new one starts on its port. Clients calling the gateway
 * meanwhile see no error but a retryable 503 with `Retry-After`: reads never even that (the
 * gateway sends a request the draining or stopped replica did not run to the other one), and
 * transfers retried with their Idempotency-Key move their money exactly once. Before, the
 * stopped replica's refused connections were 502 without `Retry-After`.
 */
describe('rolling restart of two wallet replicas behind the gateway, under load', () => {
  let stack: PlatformStack;
  const wallets: ServiceProcess[] = [];
  let gateway: string;
  let payer: Account;
  let source: string;
  let target: string;
  const env = () => ({ ...stack.env.env, SHUTDOWN_DRAIN_SECONDS: '2' });

  beforeAll(async () => {
    stack = await PlatformStack.start();
    await stack.stopService('wallet');
    wallets.push(await ServiceProcess.start('wallet', env()));
    wallets.push(await ServiceProcess.start('wallet', env()));
    gateway = await stack.startGatewayTo({ wallet: wallets.map((w) => w.url).join(',') });
    const journeys = walletJourneys(() => stack);
    payer = await journeys.signUp('roller');
    source = await walletOf(payer);
    const credited = await stack.request('POST', `/v1/api/wallets/${source}/credits`, {
      token: payer.token,
      baseUrl: gateway,
      headers: { 'admin-access': stack.env.keys.adminAccessToken },
      body: { credit: { amount: 100_000, description: 'seed', reference_id: 'seed' } },
    });
    expect(credited.status).toBe(201);
    target = await walletOf(await journeys.signUp('rollee'));
  });
  /** The personal wallet, through the gateway in front of the two wallet processes. */
  const walletOf = (who: Account) =>
    waitFor(async () => {
      const res = await stack.request('GET', '/v1/api/wallets?entity_type=user', {
        token: who.token,
        baseUrl: gateway,
      });
      return (res.body?.data as { address_hash: string }[] | undefined)?.[0]?.address_hash;
    });
  afterAll(async () => {
    for (const w of wallets) await w.kill();
    await stack?.close();
  });

  it('answers every request through both restarts, 503 + Retry-After at worst', async () => {
    const seen: Record<string, number> = {};
    const unexpected: string[] = [];
    let moved = 0;
    let stop = false;
    const note = (kind: string, res: { status: number; headers: Headers; body: any }) => {
      seen[`${kind} ${res.status}`] = (seen[`${kind} ${res.status}`] ?? 0) + 1;
      const retryable = res.status === 503 && res.headers.get('retry-after') !== null;
      const fine = kind === 'read' ? res.status === 200 : res.status === 201 || retryable;
      if (!fine) unexpected.push(`${kind} ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      return retryable;
    };
    const send = (method: string, path: string, body?: unknown, headers = {}) =>
      stack
        .request(method, path, { token: payer.token, body, headers, baseUrl: gateway })
        .catch((error: Error) => ({
          status: 0,
          headers: new Headers(),
          body: `fetch failed: ${error.message}`,
        }));
    const reader = async () => {
      while (!stop) note('read', await send('GET', `/v1/api/wallets/${source}`));
    };
    const payer_ = async (lane: number) => {
      for (let i = 0; !stop; i++) {
        const key = `roll-${lane}-${i}`;
        const transaction = {
          from_wallet: source,
          to_wallet: target,
          from_asset: 'CREDITS',
          to_asset: 'CREDITS',
          amount: 1,
          description: key,
        };
        // A client that retries a 503 with the same key, as docs/api.md asks.
        for (;;) {
          const res = await send(
            'POST',
            '/v1/api/wallets/transact',
            { transaction },
            {
              'idempotency-key': key,
            },
          );
          if (!note('transfer', res)) break;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        moved += 1;
      }
    };
    const load = [reader(), reader(), payer_(0), payer_(1), payer_(2)];

    for (let i = 0; i < wallets.length; i++) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const old = wallets[i];
      old.signal('SIGTERM');
      const exit = await old.exit;
      expect(exit).toEqual({ code: 0, signal: null });
      wallets[i] = await ServiceProcess.start('wallet', env(), { port: old.port });
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
    stop = true;
    await Promise.all(load);

    expect(unexpected.slice(0, 5)).toEqual([]);
    expect(seen['read 200']).toBeGreaterThan(20);
    expect(seen['transfer 201']).toBeGreaterThan(20);
    const wallet = await send('GET', `/v1/api/wallets/${source}`);
    expect(wallet.body.wallet.balance).toBe(100_000 - moved);
  });
});
