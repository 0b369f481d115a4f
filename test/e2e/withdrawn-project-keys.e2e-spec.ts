import { describeIf, SERVICES_ONLY, testPlatformMode, waitFor } from '@wp/testing';
import { usePlatformOnPrivateNats } from '../support/nats-outage.js';
import { PlatformStack } from '../support/stack.js';

const embedded = testPlatformMode() === 'embedded';

interface Pair {
  id: string;
  publicKey: string;
  secretKey: string;
}

/** An owner with an organization and a project: what creates and withdraws key pairs. */
async function project(stack: PlatformStack, label: string) {
  const email = `${label}-${Date.now()}-${Math.random().toString(36).slice(2)}@keys.example.com`;
  const user = await stack.request('POST', '/v1/api/users', {
    body: { username: email, password: 'a long password' },
  });
  expect(user.status).toBe(200);
  const token = user.body.data.attributes.accessToken as string;
  const org = await stack.request('POST', '/v1/api/organizations', {
    token,
    body: { data: { type: 'organization', attributes: { name: 'Keys' } } },
  });
  const P = `/v1/api/organizations/${org.body.data.id}/projects`;
  const created = await stack.request('POST', P, {
    token,
    body: { data: { type: 'project', attributes: { name: 'Traced' } } },
  });
  expect(created.status).toBe(201);
  return { token, path: `${P}/${created.body.data.id}` };
}

/** A new key pair of the project, once analytics accepts it (it learns of it by event). */
async function pair(stack: PlatformStack, p: { token: string; path: string }): Promise<Pair> {
  const res = await stack.request('POST', `${p.path}/api_keys`, {
    token: p.token,
    body: { data: { attributes: { note: 'tracing' } } },
  });
  expect(res.status).toBe(201);
  const made = {
    id: res.body.data.id as string,
    publicKey: res.body.data.attributes.publicKey as string,
    secretKey: res.body.meta.secretKey as string,
  };
  await waitFor(async () => (await traces(stack, made)).status === 200, {
    timeoutMs: 10_000,
    what: 'analytics accepting the new key pair',
  });
  return made;
}

function traces(stack: PlatformStack, pair: Pair) {
  const basic = Buffer.from(`${pair.publicKey}:${pair.secretKey}`).toString('base64');
  return stack.request('GET', '/api/public/traces', {
    headers: { authorization: `Basic ${basic}` },
  });
}

/**
 * A deleted key pair, and every pair of a deleted project, stop authenticating analytics once
 * org has answered (docs/architecture.md § Withdrawn permissions at once): org deny-lists them
 * before the commit and analytics checks the deny-list, so the answer does not wait for
 * `org.project.keys.changed` — not even while NATS is down (services mode, a private NATS).
 */
describe('withdrawn project key pairs', () => {
  let stack: PlatformStack;

  beforeAll(async () => {
    stack = await PlatformStack.start();
  });
  afterAll(() => stack?.close());

  it('refuses a deleted pair and the pairs of a deleted project at once; others keep working', async () => {
    const p = await project(stack, 'owner');
    const kept = await pair(stack, p);
    for (let i = 0; i < 3; i++) {
      const doomed = await pair(stack, p);
      const deleted = await stack.request('DELETE', `${p.path}/api_keys/${doomed.id}`, {
        token: p.token,
      });
      expect(deleted.status).toBe(204);
      expect((await traces(stack, doomed)).status).toBe(401);
      expect((await traces(stack, kept)).status).toBe(200);
    }
    const other = await project(stack, 'other-owner');
    const unaffected = await pair(stack, other);
    const gone = await stack.request('DELETE', p.path, { token: p.token });
    expect(gone.status).toBe(204);
    expect((await traces(stack, kept)).status).toBe(401);
    expect((await traces(stack, unaffected)).status).toBe(200);
  });
});

describeIf(
  !embedded,
  SERVICES_ONLY,
  'NATS outage',
)('withdrawn project key pairs while NATS is down', () => {
  const platform = usePlatformOnPrivateNats();

  it('refuses the deleted pair although analytics has not had the event', async () => {
    const p = await project(platform.stack, 'owner');
    const doomed = await pair(platform.stack, p);
    const kept = await pair(platform.stack, p);
    await platform.nats.kill();
    try {
      const deleted = await platform.stack.request('DELETE', `${p.path}/api_keys/${doomed.id}`, {
        token: p.token,
      });
      expect(deleted.status).toBe(204);
      for (let i = 0; i < 3; i++) {
        expect((await traces(platform.stack, doomed)).status).toBe(401);
        expect((await traces(platform.stack, kept)).status).toBe(200);
      }
    } finally {
      await platform.nats.resume();
    }
  });
});
