import { waitFor } from '@wp/testing';
import { PlatformStack, type ServiceName } from '../support/stack.js';

/** The value of one sample of a Prometheus text exposition, or undefined. */
function sample(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const matches = Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`));
    if (matches) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

/**
 * The metrics operators need (docs/operations.md § Metrics) are exposed with values after
 * traffic: ledger entries, amounts and insufficient-funds refusals, outbox backlog and age,
 * consumer deliveries and lag, login failures and 429s, database pool.
 */
describe('operational metrics after traffic', () => {
  let stack: PlatformStack;

  beforeAll(async () => {
    stack = await PlatformStack.start({ LOGIN_RATE_LIMIT: '3' });
  });
  afterAll(async () => {
    await stack?.close();
  });

  /** The app's `GET /metrics`, on its metrics listener (docs/operations.md § Metrics). */
  async function metrics(service: ServiceName | 'gateway'): Promise<string> {
    const res = await fetch(`${stack.metricsUrl(service)}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.text();
  }

  it('exposes ledger, outbox, consumer, login, rate-limit and pool metrics', async () => {
    const signUp = await stack.request('POST', '/v1/api/users', {
      body: { username: 'metrics@example.com', password: 'a long password' },
    });
    expect(signUp.status).toBe(200);
    const login = await stack.request('POST', '/v1/api/oauth/token', {
      body: { username: 'metrics@example.com', password: 'a long password' },
    });
    const token = login.body.data.attributes.accessToken as string;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const wrong = await stack.request('POST', '/v1/api/oauth/token', {
        body: { username: 'metrics@example.com', password: 'not the password' },
      });
      statuses.push(wrong.status);
    }
    expect(statuses).toContain(429);

    const org = await stack.request('POST', '/v1/api/organizations', {
      token,
      body: { data: { type: 'organization', attributes: { name: 'Metered' } } },
    });
    const wallet = await waitFor(
      async () => {
        const res = await stack.request('GET', '/v1/api/wallets?entity_type=organization', {
          token,
        });
        return (res.body.data as { address_hash: string; entity_id: string }[]).find(
          (w) => w.entity_id === org.body.data.id,
        );
      },
      { timeoutMs: 10_000, what: 'the organization wallet' },
    );
    const admin = { 'admin-access': stack.env.keys.adminAccessToken };
    const credited = await stack.request('POST', `/v1/api/wallets/${wallet.address_hash}/credits`, {
      token,
      headers: admin,
      body: { credit: { amount: 250, description: 'seed' } },
    });
    expect(credited.status).toBe(201);
    const tooMuch = await stack.request('POST', `/v1/api/wallets/${wallet.address_hash}/debits`, {
      token,
      headers: admin,
      body: { debit: { amount: 1000, description: 'too much' } },
    });
    expect(tooMuch.status).toBe(422);

    const auth = await metrics('auth');
    expect(sample(auth, 'auth_login_failures_total', { reason: 'invalid_credentials' })).toBe(3);
    expect(sample(auth, 'auth_login_failures_total', { reason: 'rate_limited' })).toBe(1);
    expect(sample(auth, 'http_rate_limited_total')).toBe(1);
    expect(sample(auth, 'db_pool_connections', { state: 'idle' })).toBeGreaterThan(0);
    expect(sample(auth, 'db_pool_waiting_requests')).toBeGreaterThanOrEqual(0);

    const walletText = await metrics('wallet');
    expect(sample(walletText, 'wallet_ledger_entries_total', { type: 'credit' })).toBe(1);
    expect(
      sample(walletText, 'wallet_ledger_amount_total', { type: 'credit', asset: 'CREDITS' }),
    ).toBe(250);
    expect(sample(walletText, 'wallet_insufficient_funds_total', { type: 'debit' })).toBe(1);
    expect(sample(walletText, 'events_delivered_total')).toBeGreaterThanOrEqual(1);
    expect(walletText).toContain('events_delivery_lag_seconds_count');

    const orgText = await metrics('org');
    expect(sample(orgText, 'outbox_unpublished_messages')).toBe(0);
    expect(sample(orgText, 'outbox_oldest_unpublished_age_seconds')).toBe(0);

    const gateway = await metrics('gateway');
    expect(gateway).toContain('http_request_duration_seconds_count');
  });

  it('serves metrics on their own port only: the public ports answer the API and health', async () => {
    const names = ['gateway', 'auth', 'org', 'wallet', 'analytics'] as const;
    for (const name of names) {
      const publicUrl =
        name === 'gateway' ? stack.gatewayUrl : `http://127.0.0.1:${stack.ports.get(name)}`;
      const onPublic = await fetch(`${publicUrl}/metrics`);
      expect({ name, status: onPublic.status }).toEqual({ name, status: 404 });
      expect(await onPublic.text()).not.toContain('process_cpu');
      expect((await fetch(`${publicUrl}/health/live`)).status).toBe(200);
      const own = await fetch(`${stack.metricsUrl(name)}/metrics`);
      expect(own.status).toBe(200);
      expect(await own.text()).toContain(`service="${name}"`);
      const elsewhere = await fetch(`${stack.metricsUrl(name)}/v1/api/users`);
      expect(elsewhere.status).toBe(404);
      expect(elsewhere.headers.get('x-content-type-options')).toBe('nosniff');
      expect(((await elsewhere.json()) as any).errors[0].code).toBe('NOT_FOUND');
    }
  });
});
