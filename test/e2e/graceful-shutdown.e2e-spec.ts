import { Client } from 'pg';
import { TestEnvironment, waitFor } from '@wp/testing';
import { authDataSource } from '../../apps/auth/src/database/data-source.js';
import { ServiceProcess } from '../support/service-process.js';

/**
 * SIGTERM drains (docs/operations.md § Shutdown): readiness stops answering 200 at once, the
 * request in flight completes, the outbox relay publishes its event once, the process exits 0.
 */
describe('SIGTERM with a request in flight', () => {
  const env = new TestEnvironment({ AUTH_EMAIL_ACTIVATION_REQUIRED: 'false' });
  let auth: ServiceProcess;
  let db: Client;

  beforeAll(async () => {
    await env.preparePlatform();
    const url = await env.prepareDatabase('auth', authDataSource);
    db = new Client({ connectionString: url });
    await db.connect();
    auth = await ServiceProcess.start('auth', { ...env.env, SHUTDOWN_TIMEOUT_SECONDS: '20' });
  });
  afterAll(async () => {
    await auth?.kill();
    await db?.end();
    await env.cleanup();
  });

  it('finishes the slow sign-up, flushes its event and exits 0', async () => {
    // Hold inserts into the users table: the sign-up below waits inside its transaction.
    await db.query('BEGIN');
    await db.query('LOCK TABLE app_user IN EXCLUSIVE MODE');
    const signUp = fetch(`${auth.url}/v1/api/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'api-key': env.keys.apiKey },
      body: JSON.stringify({ username: 'drain@example.com', password: 'a long password' }),
    });
    await waitFor(
      async () => {
        const { rows } = await db.query(
          `SELECT 1 FROM pg_stat_activity WHERE application_name = 'auth' AND wait_event_type = 'Lock'`,
        );
        return rows.length > 0;
      },
      { timeoutMs: 10_000, what: 'the sign-up to wait on the lock' },
    );

    auth.signal('SIGTERM');
    await waitFor(
      async () => {
        const res = await fetch(`${auth.url}/health/ready`).catch(() => undefined);
        return res === undefined || res.status === 503;
      },
      { timeoutMs: 2000, intervalMs: 50, what: 'readiness to stop answering 200' },
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    await db.query('COMMIT');

    const res = await signUp;
    expect(res.status).toBe(200);
    const exit = (await auth.exit)!;
    expect({ ...exit, stderr: exit.code === 0 ? '' : auth.stderr }).toEqual({
      code: 0,
      signal: null,
      stderr: '',
    });
    const { rows } = await db.query(
      `SELECT subject, published_at FROM outbox_message WHERE subject LIKE '%auth.user.registered'`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].published_at).not.toBeNull();
  });
});

/**
 * The drain window (docs/operations.md § Shutdown): after SIGTERM a process keeps accepting
 * connections for `SHUTDOWN_DRAIN_SECONDS`, answering each request 503 with `Retry-After` and
 * `Connection: close` — what a client or load balancer still connecting gets instead of a refused
 * connection (before, the listener closed at once) — then stops listening and exits 0.
 */
describe('SIGTERM: the drain window', () => {
  const env = new TestEnvironment({ AUTH_EMAIL_ACTIVATION_REQUIRED: 'false' });
  let auth: ServiceProcess;

  beforeAll(async () => {
    await env.preparePlatform();
    await env.prepareDatabase('auth', authDataSource);
    auth = await ServiceProcess.start('auth', { ...env.env, SHUTDOWN_DRAIN_SECONDS: '2' });
  });
  afterAll(async () => {
    await auth?.kill();
    await env.cleanup();
  });

  /** One request on a connection of its own; undefined when the connection was refused. */
  const freshRequest = async (path: string) => {
    const res = await fetch(`${auth.url}${path}`, {
      headers: { connection: 'close', 'api-key': env.keys.apiKey },
    }).catch(() => undefined);
    if (!res) return undefined;
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  };

  it('answers new connections 503 + Retry-After + Connection: close, then refuses, exits 0', async () => {
    expect((await freshRequest('/v1/api/oauth/jwks.json'))?.status).toBe(200);
    const signalled = Date.now();
    auth.signal('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));

    const during: number[] = [];
    while (Date.now() - signalled < 1500) {
      const res = await freshRequest('/v1/api/oauth/jwks.json');
      expect(res).toBeDefined();
      expect(res!.status).toBe(503);
      expect(res!.headers.get('retry-after')).toBe('1');
      expect(res!.headers.get('connection')).toBe('close');
      expect(res!.body.errors[0]).toMatchObject({ status: '503', code: 'UNAVAILABLE' });
      during.push(res!.status);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(during.length).toBeGreaterThan(5);

    const exit = (await auth.exit)!;
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(2000);
    expect({ ...exit, stderr: exit.code === 0 ? '' : auth.stderr }).toEqual({
      code: 0,
      signal: null,
      stderr: '',
    });
    expect(await freshRequest('/health/live')).toBeUndefined();
  });
});
