import { waitFor } from '@wp/testing';
import { PrivateNats } from '../support/private-nats.js';
import { PlatformStack } from '../support/stack.js';

/**
 * Issue 2, first real path: killing and restarting NATS between "organization created" and
 * "wallet opened" neither loses nor duplicates the wallet. The outbox keeps the event in
 * PostgreSQL while NATS is down; the relay publishes it after the restart; the durable
 * consumer (file-backed JetStream) resumes.
 */
describe('NATS restart between organization creation and wallet creation', () => {
  let nats: PrivateNats;
  let stack: PlatformStack;
  let token: string;

  beforeAll(async () => {
    nats = await PrivateNats.start();
    stack = await PlatformStack.start({ NATS_URL: nats.url });
    await stack.request('POST', '/v1/api/users', {
      body: { username: 'nats@example.com', password: 'a long password' },
    });
    const login = await stack.request('POST', '/v1/api/oauth/token', {
      body: { username: 'nats@example.com', password: 'a long password' },
    });
    token = login.body.data.attributes.accessToken;
  });
  afterAll(async () => {
    await stack?.close();
    await nats?.stop();
  });

  const walletsOf = async (organizationId: string) => {
    const res = await stack.request('GET', '/v1/api/wallets?entity_type=organization', { token });
    expect(res.status).toBe(200);
    return (res.body.data as { entity_id: string }[]).filter((w) => w.entity_id === organizationId);
  };

  it('creates the wallet exactly once after NATS comes back', async () => {
    await nats.kill();
    const created = await stack.request('POST', '/v1/api/organizations', {
      token,
      body: { data: { type: 'organization', attributes: { name: 'Made while NATS was down' } } },
    });
    expect(created.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1500)); // the relay tries and fails meanwhile
    expect(await walletsOf(created.body.data.id)).toHaveLength(0);

    await nats.resume();
    await waitFor(async () => (await walletsOf(created.body.data.id)).length > 0, {
      timeoutMs: 20_000,
      what: 'the organization wallet after the NATS restart',
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await walletsOf(created.body.data.id)).toHaveLength(1);
  });
});
