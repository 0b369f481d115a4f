import {
  curl,
  listening,
  NetworkNamespace,
  NpmStart,
  startLoad,
  type CurlAnswer,
} from '../support/npm-start.js';

jest.setTimeout(300_000);

/**
 * `npm start` in embedded mode (docs/architecture.md § Two modes) as a new user meets it: run
 * inside a network namespace of the test's own, where nothing listens on 5432, 6379 or 4222
 * (loopback only; without root the test runs in this machine's namespace on its own ports), with
 * an empty working directory. README § Quick start's curl walk (register → activate with the
 * mailed code → organization → its wallet), a transfer, a logout refused by another service,
 * a crashed app restarted by the runner, Ctrl-C and a second start with nothing lost, and a
 * `kill -9` of the runner followed by a start that recovers.
 */
describe('npm start, embedded mode, on a machine with nothing but Node', () => {
  const ns = NetworkNamespace.open();
  // In a namespace of its own the defaults (8080-8084) are free; elsewhere take other ports.
  const ports: Record<string, string> = ns
    ? {}
    : {
        GATEWAY_PORT: '28080',
        AUTH_PORT: '28081',
        ORG_PORT: '28082',
        WALLET_PORT: '28083',
        ANALYTICS_PORT: '28084',
        GATEWAY_METRICS_PORT: '29080',
        AUTH_METRICS_PORT: '29081',
        ORG_METRICS_PORT: '29082',
        WALLET_METRICS_PORT: '29083',
        ANALYTICS_METRICS_PORT: '29084',
      };
  const runner = new NpmStart(ns, ports);
  const gatewayPort = Number(ports['GATEWAY_PORT'] ?? 8080);
  const GW = `http://127.0.0.1:${gatewayPort}/v1/api`;
  const email = 'ada@example.com';
  const password = 'correct horse battery';
  let key = '';
  let token = '';
  let orgWallet = '';
  let userWallet = '';
  let revoked = '';

  const call = (method: string, path: string, body?: unknown, headers = {}): CurlAnswer =>
    curl(ns, method, `${GW}${path}`, {
      body,
      headers: {
        'Api-Key': key,
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
    });
  const login = (): string => {
    const res = call('POST', '/oauth/token', { username: email, password });
    expect(res.status).toBe(200);
    return res.body.data.attributes.accessToken as string;
  };
  const balance = (address: string): number => {
    const res = call('GET', `/wallets/${address}`);
    expect(res.status).toBe(200);
    return res.body.wallet.balance as number;
  };
  const until = async <T>(
    what: string,
    probe: () => T | undefined,
    ms = 20_000,
    everyMs = 300,
  ): Promise<T> => {
    const deadline = Date.now() + ms;
    for (;;) {
      const value = probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  };
  /** SIGKILL to the wallet; ms until it answers through the gateway again. */
  const killWallet = async (): Promise<number> => {
    const killed = Date.now();
    process.kill(runner.pidOf('wallet'), 'SIGKILL');
    await until(
      'the wallet service back',
      () => (call('GET', '/wallets').status === 200 ? true : undefined),
      60_000,
      50,
    );
    return Date.now() - killed;
  };

  afterAll(async () => {
    if (runner.output.includes('Workspace platform is up')) await runner.interrupt();
    ns?.close();
    runner.remove();
  });

  it('finds nothing listening on PostgreSQL, Redis or NATS ports where it runs', () => {
    if (!ns) return; // not root: this machine's servers stay reachable (and unused)
    for (const port of [5432, 6379, 4222]) expect(listening(ns, port)).toBe(false);
  });

  it('comes up from an empty directory and prints the mode, data location and Api-Key', async () => {
    await runner.start();
    expect(runner.output).toContain('Mode:     embedded');
    expect(runner.output).toContain(`Data:     ${runner.dir}/.data`);
    key = runner.output.match(/Api-Key:\s+(\S+)/)![1];
    expect(key).toBe(runner.dotenv('BOOTSTRAP_API_KEY'));
  });

  it("walks README's first path: register, activate with the mailed code, organization, its wallet", async () => {
    const registered = call('POST', '/users', { username: email, password });
    expect(registered.status).toBe(201);
    expect(registered.body.activationRequired).toBe(true);
    const userId = registered.body.user_id as string;
    const [, code] = await runner.waitFor(/\[mail\]\s+Subject: .*activation code: (\d{6})/, 20_000);
    const activated = call('POST', `/users/${userId}/activate/email`, { code });
    expect(activated.status).toBe(200);
    token = activated.body.data.attributes.accessToken;

    const org = call('POST', '/organizations', {
      data: { type: 'organization', attributes: { name: 'Acme' } },
    });
    expect(org.status).toBe(200);
    orgWallet = await until('the organization wallet', () => {
      const res = call('GET', '/wallets?entity_type=organization');
      return res.body?.data?.find((w: { entity_id: string }) => w.entity_id === org.body.data.id)
        ?.address_hash as string | undefined;
    });
    userWallet = await until('the personal wallet', () => {
      const res = call('GET', '/wallets?entity_type=user');
      return res.body?.data?.[0]?.address_hash as string | undefined;
    });
  });

  it('credits the organization wallet and transfers to the personal one', () => {
    const credited = call(
      'POST',
      `/wallets/${orgWallet}/credits`,
      { credit: { amount: 500, description: 'seed' } },
      { 'Admin-Access': runner.dotenv('ADMIN_ACCESS_TOKENS') },
    );
    expect(credited.status).toBe(201);
    const paid = call('POST', '/wallets/transact', {
      transaction: {
        from_wallet: orgWallet,
        to_wallet: userWallet,
        from_asset: 'CREDITS',
        to_asset: 'CREDITS',
        amount: 120.5,
        description: 'salary',
      },
    });
    expect(paid.status).toBe(201);
    expect(balance(orgWallet)).toBe(379.5);
    expect(balance(userWallet)).toBe(120.5);
  });

  it('refuses a logged-out token on the wallet and org services at once', () => {
    const doomed = login();
    const kept = token;
    token = doomed;
    expect(call('GET', '/oauth/token/revoke').status).toBe(200);
    expect(call('GET', '/wallets').status).toBe(401);
    expect(call('GET', '/organizations').status).toBe(401);
    token = kept;
    expect(call('GET', '/organizations').status).toBe(200);
    revoked = doomed;
  });

  // docs/operations.md § Start-up time: the restart took 10.4 s idle and 16.9 s under load.
  it('restarts an app killed with SIGKILL within 5 s, and logs why and where its start-up went', async () => {
    const from = runner.output.length;
    const elapsed = await killWallet();
    expect(elapsed).toBeLessThan(5000);
    expect(runner.output.slice(from)).toMatch(
      /wallet stopped unexpectedly \(killed by SIGKILL\); restarting in 0.25 s/,
    );
    // The line may follow the first answers by a moment (the log is asynchronous).
    await runner.waitFor(
      /wallet ready in \d+ ms: node \d+, modules \d+, config \d+, providers \d+/,
      5000,
      from,
    );
    expect(balance(userWallet)).toBe(120.5);
  });

  // Under load the restart has grown since the table in docs/operations.md § Start-up time was
  // measured (3.2 s then; 6.5-7.5 s quiet and 10.5 s in a CI run on 2026-11-29, the revision before
  // that day's changes alike): 15 s bounds it while the cause is found (same section).
  it('restarts it within 15 s while the gateway, org and wallet are under load', async () => {
    const load = startLoad(ns, 32, { 'Api-Key': key, Authorization: `Bearer ${token}` }, [
      `${GW}/wallets/${orgWallet}`,
      `${GW}/organizations`,
      `${GW}/wallets?entity_type=user`,
    ]);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    let elapsed: number;
    try {
      elapsed = await killWallet();
    } finally {
      const statuses = await load.stop();
      // While the wallet was down its routes answered a retryable 503, nothing else failed.
      expect(statuses['200']).toBeGreaterThan(100);
      expect(Object.keys(statuses).filter((s) => s !== '200' && s !== '503')).toEqual([]);
    }
    expect(elapsed).toBeLessThan(15_000);
    expect(balance(userWallet)).toBe(120.5);
  });

  it('stops on Ctrl-C and, started again, has the same user, balances and revocation', async () => {
    expect(await runner.interrupt()).toBe(0);
    expect(listening(ns, gatewayPort)).toBe(false);
    await runner.start();
    expect(runner.output).toMatch(/auth: 0 migration\(s\) applied/);
    token = login();
    expect(balance(userWallet)).toBe(120.5);
    expect(balance(orgWallet)).toBe(379.5);
    const orgs = call('GET', '/organizations');
    expect(
      orgs.body.data.map((o: { attributes: { name: string } }) => o.attributes.name),
    ).toContain('Acme');
    const kept = token;
    token = revoked;
    expect(call('GET', '/wallets').status).toBe(401);
    token = kept;
  });

  it('recovers after kill -9 of npm start itself, with every acknowledged transfer kept', async () => {
    const paid = call('POST', '/wallets/transact', {
      transaction: {
        from_wallet: orgWallet,
        to_wallet: userWallet,
        from_asset: 'CREDITS',
        to_asset: 'CREDITS',
        amount: 9.5,
        description: 'just before the crash',
      },
    });
    expect(paid.status).toBe(201);
    await runner.kill9();
    const from = runner.output.length;
    await runner.start();
    expect(runner.output.slice(from)).toMatch(
      /stopping the PostgreSQL server \(pid \d+\) an earlier run left behind|removing a stale postmaster.pid/,
    );
    token = login();
    expect(balance(userWallet)).toBe(130);
    expect(balance(orgWallet)).toBe(370);
  });
});
