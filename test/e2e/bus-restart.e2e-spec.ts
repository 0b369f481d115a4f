import { describeIf, SERVICES_ONLY, testPlatformMode, waitFor } from '@wp/testing';
import {
  NATS_RECOVERY_MS,
  timeToRecover,
  usePlatformOnPrivateNats,
} from '../support/nats-outage.js';
import { PrivatePostgres } from '../support/private-postgres.js';
import { PlatformStack } from '../support/stack.js';

const embedded = testPlatformMode() === 'embedded';

/** Signs up and logs in one user; the access token. */
async function signUp(stack: PlatformStack, email: string): Promise<string> {
  await stack.request('POST', '/v1/api/users', {
    body: { username: email, password: 'a long password' },
  });
  const login = await stack.request('POST', '/v1/api/oauth/token', {
    body: { username: email, password: 'a long password' },
  });
  return login.body.data.attributes.accessToken as string;
}

async function organizationWallets(stack: PlatformStack, token: string, organizationId: string) {
  const res = await stack.request('GET', '/v1/api/wallets?entity_type=organization', { token });
  expect(res.status).toBe(200);
  return (res.body.data as { entity_id: string }[]).filter((w) => w.entity_id === organizationId);
}

/**
 * Services mode, first real path: killing and restarting NATS between "organization created" and
 * "wallet opened" neither loses nor duplicates the wallet. The outbox keeps the event in
 * PostgreSQL while NATS is down; the relay publishes it as soon as the connection is back (it
 * took 3.3-4.8 s: a publish caught by the outage waited out its 5 s acknowledgement timeout);
 * the durable consumer (file-backed JetStream) resumes. The wallet appears within
 * NATS_RECOVERY_MS of NATS listening again.
 */
describeIf(
  !embedded,
  SERVICES_ONLY,
  'NATS restart',
)('NATS restart between organization creation and wallet creation', () => {
  const platform = usePlatformOnPrivateNats();
  let token: string;

  beforeAll(async () => {
    token = await signUp(platform.stack, 'nats@example.com');
  });

  it('creates the wallet exactly once after NATS comes back', async () => {
    await platform.nats.kill();
    const created = await platform.stack.request('POST', '/v1/api/organizations', {
      token,
      body: { data: { type: 'organization', attributes: { name: 'Made while NATS was down' } } },
    });
    expect(created.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1500)); // the relay tries and fails meanwhile
    expect(await organizationWallets(platform.stack, token, created.body.data.id)).toHaveLength(0);

    const elapsed = await timeToRecover(
      platform,
      async () =>
        (await organizationWallets(platform.stack, token, created.body.data.id)).length > 0,
    );
    expect(elapsed).toBeLessThan(NATS_RECOVERY_MS);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await organizationWallets(platform.stack, token, created.body.data.id)).toHaveLength(1);
  });
});

/**
 * Embedded mode's counterpart: the platform database holds the bus (pg-boss queues), the
 * deny-list and the Api-Key registry. It crashes (SIGKILL of its server) while an event waits in
 * the queue of a consumer that is down; after the server restarts from its WAL the consumer gets
 * the event exactly once, and every process's pools and LISTEN session have reconnected (a
 * logout is refused by another service).
 */
describeIf(
  embedded,
  'embedded mode only',
  'platform database crash',
)('platform database crash while an event waits for a consumer that is down', () => {
  let postgres: PrivatePostgres;
  let stack: PlatformStack;
  let token: string;

  beforeAll(async () => {
    postgres = new PrivatePostgres();
    await postgres.start();
    stack = await PlatformStack.start({ PLATFORM_DATABASE_URL: postgres.url('wp_platform') });
    token = await signUp(stack, 'crash@example.com');
  });
  afterAll(async () => {
    await stack?.close();
    await postgres?.close();
  });

  it('delivers the event once after the restart and refuses a logout everywhere', async () => {
    await stack.stopService('wallet');
    const created = await stack.request('POST', '/v1/api/organizations', {
      token,
      body: { data: { type: 'organization', attributes: { name: 'Made before the crash' } } },
    });
    expect(created.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1000)); // published to the queue
    await postgres.crash();
    await postgres.start();
    await stack.startService('wallet');
    await waitFor(
      async () => (await organizationWallets(stack, token, created.body.data.id)).length > 0,
      { timeoutMs: 20_000, what: 'the organization wallet after the crash' },
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await organizationWallets(stack, token, created.body.data.id)).toHaveLength(1);

    await waitFor(
      async () =>
        (await stack.request('GET', '/v1/api/oauth/token/revoke', { token })).status === 200,
      { timeoutMs: 10_000, what: 'auth back on the platform database' },
    );
    const refused = await stack.request('GET', '/v1/api/organizations', { token });
    expect(refused.status).toBe(401);
  });
});
