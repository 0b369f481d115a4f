import { performance } from 'node:perf_hooks';
import { describeIf, SERVICES_ONLY, testPlatformMode, waitFor } from '@wp/testing';
import { usePlatformOnPrivateRedis } from '../support/redis-outage.js';
import { unusedApiKey } from '../support/revoked-credentials.js';
import type { ServiceName } from '../support/stack.js';

const embedded = testPlatformMode() === 'embedded';
/** "Well under a second" (docs/operations.md § Without Redis), on a loaded test machine. */
const TIME_TO_503_MS = 1000;

interface Answer {
  what: string;
  status: number;
  ms: number;
  retryAfter: string | null;
  body: any;
}

/**
 * Redis down or hung fails fast (docs/operations.md § Without Redis): every request that needs
 * it — Api-Key, bearer token, rate limit, analytics key pair — is answered 503 with
 * `Retry-After` and the service's error body (JSON:API; Langfuse's shape on analytics) well under
 * a second, through the gateway and on each service; readiness says `degraded`, not down; the
 * platform serves again once Redis is back; and a process started while Redis is down boots,
 * refuses the same way and closes without waiting for Redis. Before: 4-12 s per request, 503 without
 * `Retry-After`, every process not ready. Services mode only (a private Redis).
 */
describeIf(
  !embedded,
  SERVICES_ONLY,
  'embedded mode has no Redis',
)('Redis down or hung', () => {
  const platform = usePlatformOnPrivateRedis();
  let token: string;
  let basic: string;

  beforeAll(async () => {
    const { stack } = platform;
    const user = await stack.request('POST', '/v1/api/users', {
      body: { username: `outage-${Date.now()}@redis.example.com`, password: 'a long password' },
    });
    token = user.body.data.attributes.accessToken as string;
    const org = await stack.request('POST', '/v1/api/organizations', {
      token,
      body: { data: { type: 'organization', attributes: { name: 'Outage' } } },
    });
    const P = `/v1/api/organizations/${org.body.data.id}/projects`;
    const project = await stack.request('POST', P, {
      token,
      body: { data: { type: 'project', attributes: { name: 'Traced' } } },
    });
    const pair = await stack.request('POST', `${P}/${project.body.data.id}/api_keys`, {
      token,
      body: { data: { attributes: { note: 'outage' } } },
    });
    basic = Buffer.from(
      `${pair.body.data.attributes.publicKey}:${pair.body.meta.secretKey}`,
    ).toString('base64');
    await waitFor(async () => (await traces()).status === 200, {
      timeoutMs: 10_000,
      what: 'analytics accepting the key pair',
    });
  });

  /** As Langfuse clients send it: no Api-Key (optional on analytics routes). */
  const traces = (baseUrl?: string) =>
    platform.stack.request('GET', '/api/public/traces', {
      headers: { authorization: `Basic ${basic}`, 'api-key': '' },
      baseUrl,
    });
  /** Every service answers with Redis again (each reconnects on its own). */
  const serving = async () => {
    const { stack } = platform;
    const answers = await Promise.all([
      stack.request('GET', '/v1/api/organizations', { token }),
      stack.request('GET', '/v1/api/oauth/token/info', { token }),
      stack.request('GET', '/v1/api/wallets?entity_type=user', { token }),
      traces(),
    ]);
    return answers.every((res) => res.status === 200);
  };
  const direct = (service: ServiceName) => `http://127.0.0.1:${platform.stack.ports.get(service)}`;

  /**
   * Requests needing Redis, through the gateway and to each service directly, timed; `newKey`
   * is an Api-Key no process has cached (made while Redis answered).
   */
  async function answers(newKey: string): Promise<Answer[]> {
    const { stack } = platform;
    const requests: [string, () => ReturnType<typeof stack.request>][] = [
      ['gateway: org with a token', () => stack.request('GET', '/v1/api/organizations', { token })],
      [
        'gateway: wallet',
        () => stack.request('GET', '/v1/api/wallets?entity_type=user', { token }),
      ],
      [
        'gateway: auth token info',
        () => stack.request('GET', '/v1/api/oauth/token/info', { token }),
      ],
      [
        'gateway: login (rate limit)',
        () =>
          stack.request('POST', '/v1/api/oauth/token', {
            body: { username: 'nobody@redis.example.com', password: 'wrong password' },
          }),
      ],
      ['gateway: analytics key pair', () => traces()],
      ['analytics directly', () => traces(direct('analytics'))],
      [
        'org directly',
        () => stack.request('GET', '/v1/api/organizations', { token, baseUrl: direct('org') }),
      ],
      [
        'wallet directly',
        () =>
          stack.request('GET', '/v1/api/wallets?entity_type=user', {
            token,
            baseUrl: direct('wallet'),
          }),
      ],
      [
        'gateway: an Api-Key no process has cached',
        () => stack.request('GET', '/v1/api/organizations', { headers: { 'api-key': newKey } }),
      ],
    ];
    const out: Answer[] = [];
    for (const [what, send] of requests) {
      const started = performance.now();
      const res = await send();
      out.push({
        what,
        status: res.status,
        ms: performance.now() - started,
        retryAfter: res.headers.get('retry-after'),
        body: res.body,
      });
    }
    return out;
  }

  function expectFast503(all: Answer[]) {
    for (const a of all) {
      expect({ what: a.what, status: a.status, retryAfter: a.retryAfter }).toEqual({
        what: a.what,
        status: 503,
        retryAfter: '1',
      });
      expect({ what: a.what, fast: a.ms < TIME_TO_503_MS }).toEqual({ what: a.what, fast: true });
      if (a.what.includes('analytics')) {
        expect(a.body).toMatchObject({
          error: 'ServiceUnavailableError',
          code: 'service_unavailable',
        });
      } else {
        expect(a.body.errors[0]).toMatchObject({ status: '503', code: 'UNAVAILABLE' });
      }
    }
  }

  it('stopped: 503 with Retry-After and the error body at once, readiness degraded, back when Redis is', async () => {
    const newKey = await unusedApiKey(platform.stack);
    await platform.redis.kill();
    // Remembered "not revoked" answers last at most 1 s after the deny-list's channel went quiet
    // (docs/architecture.md § Identity and access); from then on every token check needs Redis.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expectFast503(await answers(newKey));

    for (const name of ['gateway', 'auth', 'org', 'wallet', 'analytics'] as const) {
      const url = name === 'gateway' ? platform.stack.gatewayUrl : direct(name);
      const ready = await fetch(`${url}/health/ready`);
      const body = (await ready.json()) as { status: string; error: Record<string, unknown> };
      expect({
        name,
        status: ready.status,
        body: body.status,
        redis: 'redis' in body.error,
      }).toEqual({ name, status: 200, body: 'degraded', redis: true });
    }

    await platform.redis.resume(); // empty: rebuilt by auth and org
    await waitFor(serving, { timeoutMs: 5000, what: 'the platform serving again' });
  });

  it('hung (frozen): 503 within the command timeout, and serving again once it answers', async () => {
    const newKey = await unusedApiKey(platform.stack);
    platform.redis.freeze();
    try {
      await new Promise((resolve) => setTimeout(resolve, 1200));
      expectFast503(await answers(newKey));
    } finally {
      platform.redis.thaw();
    }
    await waitFor(serving, { timeoutMs: 5000, what: 'the platform serving again' });
  });

  it('a process started while Redis is down boots, answers 503 and shuts down without waiting for Redis', async () => {
    await platform.redis.kill();
    try {
      const replica = await platform.stack.startReplica('org');
      const down = await platform.stack.request('GET', '/v1/api/organizations', {
        token,
        baseUrl: replica,
      });
      expect([down.status, down.headers.get('retry-after')]).toEqual([503, '1']);
      expect((await fetch(`${replica}/health/ready`)).status).toBe(200);
      const started = performance.now();
      await platform.stack.stopReplica(replica);
      expect(performance.now() - started).toBeLessThan(5000);
    } finally {
      await platform.redis.resume();
    }
    await waitFor(serving, { timeoutMs: 5000, what: 'the platform serving again' });
  });
});
