import { describeIf, SERVICES_ONLY, testPlatformMode, waitFor } from '@wp/testing';
import { usePlatformOnPrivateNats } from '../support/nats-outage.js';
import { PlatformStack } from '../support/stack.js';

const embedded = testPlatformMode() === 'embedded';

interface Scene {
  owner: string;
  member: { id: string; token: string };
  orgId: string;
  projectId: string;
  passId: string;
}

let counter = 0;

/** Signs up an account: its id and access token. */
async function signUp(stack: PlatformStack, label: string) {
  const email = `${label}-${++counter}-${Date.now()}@activity-access.example.com`;
  const res = await stack.request('POST', '/v1/api/users', {
    body: { username: email, password: 'a long password' },
  });
  expect(res.status).toBe(200);
  return { id: res.body.data.id as string, email, token: res.body.data.attributes.accessToken };
}

/**
 * An organization with a project, a Sentinel Pass in it and a project MEMBER (organization
 * MEMBER) who may read the pass's activity — once auth has the pass and the memberships.
 */
async function scene(stack: PlatformStack): Promise<Scene> {
  const owner = await signUp(stack, 'owner');
  const member = await signUp(stack, 'member');
  const org = await stack.request('POST', '/v1/api/organizations', {
    token: owner.token,
    body: { data: { type: 'organization', attributes: { name: 'Activity readers' } } },
  });
  const orgId = org.body.data.id as string;
  const added = await stack.request('POST', `/v1/api/organizations/${orgId}/add_user`, {
    token: owner.token,
    body: { data: { type: 'users', attributes: { email: member.email, role: 'MEMBER' } } },
  });
  expect(added.status).toBe(201);
  const P = `/v1/api/organizations/${orgId}/projects`;
  const project = await stack.request('POST', P, {
    token: owner.token,
    body: { data: { type: 'project', attributes: { name: 'Agents' } } },
  });
  const projectId = project.body.data.id as string;
  const joined = await stack.request('POST', `${P}/${projectId}/add_user`, {
    token: owner.token,
    body: {
      data: { type: 'users', attributes: { email: member.email } },
      role: 'MEMBER',
      project_only: true,
    },
  });
  expect(joined.status).toBe(201);
  const pass = await stack.request('POST', `${P}/${projectId}/sentinel_passes`, {
    token: owner.token,
    body: { sentinelPass: { title: 'reader test', permissions: ['read'] } },
  });
  expect(pass.status).toBe(201);
  const scene = { owner: owner.token, member, orgId, projectId, passId: pass.body.data.id };
  await waitFor(async () => (await logs(stack, scene)).status === 200, {
    timeoutMs: 10_000,
    what: 'auth letting the project member read the activity',
  });
  return scene;
}

function logs(stack: PlatformStack, s: Scene) {
  return stack.request('GET', `/v1/api/oauth/agent/activity/logs?agent_user_id=${s.passId}`, {
    token: s.member.token,
  });
}

function denyAccess(stack: PlatformStack, s: Scene) {
  return stack.request(
    'POST',
    `/v1/api/organizations/${s.orgId}/projects/${s.projectId}/deny_access/${s.member.id}`,
    { token: s.owner },
  );
}

/**
 * Auth's read model of memberships decides who reads a Sentinel Pass's activity; like wallet it
 * confirms the caller's roles against the organization's permission version first
 * (docs/architecture.md § Withdrawn permissions at once), so a member denied access cannot read
 * the activity once `deny_access` has answered — also while NATS is down and auth has not
 * received the event (services mode, a private NATS).
 */
describe('withdrawn access to Sentinel Pass activity', () => {
  let stack: PlatformStack;

  beforeAll(async () => {
    stack = await PlatformStack.start();
  });
  afterAll(() => stack?.close());

  it('refuses the activity log to a member right after deny_access', async () => {
    for (let round = 0; round < 3; round++) {
      const s = await scene(stack);
      expect((await denyAccess(stack, s)).status).toBe(200);
      const refused = await logs(stack, s);
      expect([refused.status, refused.body.errors?.[0]?.code]).toEqual([404, 'NOT_FOUND']);
    }
  });
});

describeIf(
  !embedded,
  SERVICES_ONLY,
  'NATS outage',
)('withdrawn access to activity while NATS is down', () => {
  const platform = usePlatformOnPrivateNats();

  it('never shows the activity to the denied member (404 or 503), and 404 once the event arrives', async () => {
    const s = await scene(platform.stack);
    const other = await scene(platform.stack);
    await platform.nats.kill();
    try {
      expect((await denyAccess(platform.stack, s)).status).toBe(200);
      for (let i = 0; i < 3; i++) {
        const refused = await logs(platform.stack, s);
        expect([404, 503]).toContain(refused.status);
        if (refused.status === 503) {
          expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
        }
        // Another organization's member is not affected.
        expect((await logs(platform.stack, other)).status).toBe(200);
      }
    } finally {
      await platform.nats.resume();
    }
    await waitFor(async () => (await logs(platform.stack, s)).status === 404, {
      timeoutMs: 20_000,
      what: 'the denial applied after NATS is back',
    });
  });
});
