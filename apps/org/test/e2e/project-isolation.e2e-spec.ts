import { OrgTestContext, type TestUser } from '../support/org-test-app.js';

/**
 * Isolation and role matrix of the projects feature: every project endpoint (and the
 * organization-level key listings) × the caller's standing. A caller outside the organization gets
 * 404 as for an organization that does not exist; a member of the organization who cannot see the
 * project (no project membership, or access denied) gets 404 as for a project that does not exist;
 * a member lacking the permission gets 403. Refused requests change nothing.
 */
const CALLERS = [
  'non-member',
  'org MEMBER only',
  'denied P-ADMIN',
  'P-VIEWER',
  'P-MEMBER',
  'P-ADMIN',
  'org ADMIN',
  'org OWNER',
] as const;
type Caller = (typeof CALLERS)[number];
type Statuses = [number, number, number, number, number, number, number, number];

interface Fixture {
  orgId: string;
  projectId: string;
  apiKeyId: string;
  llmKeyId: string;
  invitationId: string;
}

interface Endpoint {
  name: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: (f: Fixture) => string;
  body?: (f: Fixture) => unknown;
  mutates: boolean;
  expected: Statuses;
}

const HIDDEN: Statuses = [404, 404, 404, 200, 200, 200, 200, 200];
const MANAGE = (ok: number): Statuses => [404, 404, 404, 403, 403, ok, ok, ok];

describe('project endpoints: isolation and role matrix', () => {
  let ctx: OrgTestContext;
  const users = {} as Record<Caller | 'target' | 'parked' | 'candidate', TestUser>;
  let shared: Fixture;

  beforeAll(async () => {
    ctx = await OrgTestContext.start({ INVITATION_RESEND_LIMIT: '1000' });
    for (const name of [...CALLERS, 'target', 'parked', 'candidate'] as const) {
      users[name] = await ctx.newUser(name.replace(/[^a-z]/gi, '').toLowerCase());
    }
    shared = await buildFixture();
  }, 120_000);
  afterAll(() => ctx.close());

  async function buildFixture(): Promise<Fixture> {
    const owner = users['org OWNER'];
    const orgId = await ctx.newOrganization(owner, 'Matrix');
    for (const name of [
      'org MEMBER only',
      'denied P-ADMIN',
      'P-VIEWER',
      'P-MEMBER',
      'P-ADMIN',
    ] as const) {
      await ctx.addMember(orgId, owner, users[name], 'MEMBER');
    }
    await ctx.addMember(orgId, owner, users['org ADMIN'], 'ADMIN');
    const projectId = await ctx.newProject(orgId, owner, 'Guarded');
    const P = `/organizations/${orgId}/projects/${projectId}`;
    const add = (name: keyof typeof users, role: string) =>
      ctx.addProjectMember(orgId, projectId, owner, users[name], role);
    await add('denied P-ADMIN', 'ADMIN');
    await add('P-VIEWER', 'VIEWER');
    await add('P-MEMBER', 'MEMBER');
    await add('P-ADMIN', 'ADMIN');
    await add('target', 'VIEWER');
    await add('parked', 'MEMBER');
    for (const name of ['denied P-ADMIN', 'parked'] as const) {
      await ctx.request('POST', `${P}/deny_access/${users[name].id}`, { token: owner.token });
    }
    const [key] = await ctx.db.query('SELECT id FROM project_api_key WHERE project_id = $1', [
      Number(projectId),
    ]);
    const llm = await ctx.request('POST', `${P}/llm_api_keys`, {
      token: owner.token,
      body: {
        data: {
          type: 'llm_api_keys',
          attributes: { provider: 'mistral', secretKey: 'mistral-key-123456' },
        },
      },
    });
    const invitation = await ctx.request('POST', `${P}/invitations`, {
      token: owner.token,
      body: {
        data: { type: 'membershipInvitation', attributes: { email: ctx.unknownEmail('p') } },
        projectOnly: true,
      },
    });
    return {
      orgId,
      projectId,
      apiKeyId: key.id,
      llmKeyId: llm.body.data.id,
      invitationId: invitation.body.data.id,
    };
  }

  async function snapshot(f: Fixture): Promise<string> {
    const org = Number(f.orgId);
    const q = (sql: string) => ctx.db.query(sql, [org]);
    return JSON.stringify({
      projects: await q(
        'SELECT id, name, is_default, members_count, keys_version FROM project WHERE organization_id = $1 ORDER BY id',
      ),
      projectMembers: await q(
        'SELECT project_id, user_id, role, access_denied, version FROM project_membership WHERE organization_id = $1 ORDER BY 1, 2',
      ),
      orgMembers: await q(
        'SELECT user_id, role FROM organization_membership WHERE organization_id = $1 ORDER BY 1',
      ),
      apiKeys: await q(
        'SELECT id, note FROM project_api_key WHERE organization_id = $1 ORDER BY id',
      ),
      llmKeys: await q('SELECT id FROM llm_api_key WHERE organization_id = $1 ORDER BY id'),
      invitations: await q(
        'SELECT id, status, send_count, token_hash FROM invitation WHERE organization_id = $1 ORDER BY id',
      ),
      outbox: await ctx.db.query('SELECT count(*)::int AS n FROM outbox_message'),
    });
  }

  const P = (f: Fixture) => `/organizations/${f.orgId}/projects`;
  const ENDPOINTS: Endpoint[] = [
    {
      name: 'GET P',
      method: 'GET',
      path: (f) => P(f),
      mutates: false,
      expected: [404, 200, 200, 200, 200, 200, 200, 200],
    },
    {
      name: 'POST P',
      method: 'POST',
      path: (f) => P(f),
      body: () => ({ data: { type: 'project', attributes: { name: 'New' } } }),
      mutates: true,
      expected: [404, 403, 403, 403, 403, 403, 201, 201],
    },
    {
      name: 'GET P/{id}',
      method: 'GET',
      path: (f) => `${P(f)}/${f.projectId}?include=users`,
      mutates: false,
      expected: HIDDEN,
    },
    {
      name: 'GET P/{id}?secret=true',
      method: 'GET',
      path: (f) => `${P(f)}/${f.projectId}?secret=true`,
      mutates: false,
      expected: MANAGE(200),
    },
    {
      name: 'PATCH P/{id}',
      method: 'PATCH',
      path: (f) => `${P(f)}/${f.projectId}`,
      body: (f) => ({
        data: { id: f.projectId, type: 'project', attributes: { name: 'Renamed' } },
      }),
      mutates: true,
      expected: MANAGE(200),
    },
    {
      name: 'DELETE P/{id}',
      method: 'DELETE',
      path: (f) => `${P(f)}/${f.projectId}`,
      mutates: true,
      expected: MANAGE(204),
    },
    {
      name: 'POST P/{id}/api_keys',
      method: 'POST',
      path: (f) => `${P(f)}/${f.projectId}/api_keys`,
      body: () => ({ data: { attributes: { note: 'n' } } }),
      mutates: true,
      expected: MANAGE(201),
    },
    {
      name: 'PATCH P/{id}/api_keys/{apiKeyId}',
      method: 'PATCH',
      path: (f) => `${P(f)}/${f.projectId}/api_keys/${f.apiKeyId}`,
      body: () => ({ data: { attributes: { note: 'changed' } } }),
      mutates: true,
      expected: MANAGE(200),
    },
    {
      name: 'DELETE P/{id}/api_keys/{apiKeyId}',
      method: 'DELETE',
      path: (f) => `${P(f)}/${f.projectId}/api_keys/${f.apiKeyId}`,
      mutates: true,
      expected: MANAGE(204),
    },
    {
      name: 'POST P/{id}/llm_api_keys',
      method: 'POST',
      path: (f) => `${P(f)}/${f.projectId}/llm_api_keys`,
      body: () => ({
        data: {
          type: 'llm_api_keys',
          attributes: { provider: 'groq', secretKey: 'gsk_0123456789' },
        },
      }),
      mutates: true,
      expected: MANAGE(201),
    },
    {
      name: 'DELETE P/{id}/llm_api_keys/{apiKeyId}',
      method: 'DELETE',
      path: (f) => `${P(f)}/${f.projectId}/llm_api_keys/${f.llmKeyId}`,
      mutates: true,
      expected: MANAGE(204),
    },
    {
      name: 'GET P/{id}/users',
      method: 'GET',
      path: (f) => `${P(f)}/${f.projectId}/users`,
      mutates: false,
      expected: HIDDEN,
    },
    {
      name: 'POST P/{id}/add_user',
      method: 'POST',
      path: (f) => `${P(f)}/${f.projectId}/add_user`,
      body: () => ({
        data: { type: 'users', attributes: { email: users.candidate.email } },
        role: 'VIEWER',
        project_only: true,
      }),
      mutates: true,
      expected: MANAGE(201),
    },
    {
      name: 'PATCH P/{id}/members/{userId}/role',
      method: 'PATCH',
      path: (f) => `${P(f)}/${f.projectId}/members/${users.target.id}/role`,
      body: () => ({ role: 'MEMBER' }),
      mutates: true,
      expected: MANAGE(200),
    },
    {
      name: 'DELETE P/{id}/remove_user/{userId}',
      method: 'DELETE',
      path: (f) => `${P(f)}/${f.projectId}/remove_user/${users.target.id}`,
      mutates: true,
      expected: MANAGE(204),
    },
    {
      name: 'POST P/{id}/deny_access/{userId}',
      method: 'POST',
      path: (f) => `${P(f)}/${f.projectId}/deny_access/${users.target.id}`,
      mutates: true,
      expected: MANAGE(200),
    },
    {
      name: 'POST P/{id}/restore_access/{userId}',
      method: 'POST',
      path: (f) => `${P(f)}/${f.projectId}/restore_access/${users.parked.id}`,
      mutates: true,
      expected: MANAGE(200),
    },
    {
      name: 'POST P/{id}/invitations',
      method: 'POST',
      path: (f) => `${P(f)}/${f.projectId}/invitations`,
      body: () => ({
        data: { type: 'membershipInvitation', attributes: { email: ctx.unknownEmail('i') } },
        projectOnly: true,
      }),
      mutates: true,
      expected: MANAGE(201),
    },
    {
      name: 'GET P/{id}/invitations',
      method: 'GET',
      path: (f) => `${P(f)}/${f.projectId}/invitations`,
      mutates: false,
      expected: MANAGE(200),
    },
    {
      name: 'POST P/{id}/invitations/{invitationId}/resend',
      method: 'POST',
      path: (f) => `${P(f)}/${f.projectId}/invitations/${f.invitationId}/resend`,
      mutates: true,
      expected: MANAGE(200),
    },
    {
      name: 'DELETE P/{id}/invitations/{invitationId}',
      method: 'DELETE',
      path: (f) => `${P(f)}/${f.projectId}/invitations/${f.invitationId}`,
      mutates: true,
      expected: MANAGE(204),
    },
    {
      name: 'GET /organizations/{id}/api_keys',
      method: 'GET',
      path: (f) => `/organizations/${f.orgId}/api_keys`,
      mutates: false,
      expected: [404, 403, 403, 403, 403, 403, 200, 200],
    },
    {
      name: 'GET /organizations/{id}/llm_api_keys',
      method: 'GET',
      path: (f) => `/organizations/${f.orgId}/llm_api_keys`,
      mutates: false,
      expected: [404, 403, 403, 403, 403, 403, 200, 200],
    },
  ];

  const cells = ENDPOINTS.flatMap((endpoint) =>
    CALLERS.map((caller, i) => [endpoint.name, caller, endpoint.expected[i], endpoint] as const),
  );

  it.each(cells)('%s as %s answers %i', async (_name, caller, status, endpoint) => {
    const allowedWrite = endpoint.mutates && status < 300;
    const fixture = allowedWrite ? await buildFixture() : shared;
    const before = await snapshot(fixture);
    const res = await ctx.request(endpoint.method, endpoint.path(fixture), {
      token: users[caller].token,
      body: endpoint.body?.(fixture),
    });
    expect(res.status).toBe(status);
    const after = await snapshot(fixture);
    if (allowedWrite) expect(after).not.toEqual(before);
    else expect(after).toEqual(before);
    if (status === 404) {
      const ghost =
        caller === 'non-member'
          ? { ...fixture, orgId: '2147483000' }
          : { ...fixture, projectId: '2147483000' };
      const twin = await ctx.request(endpoint.method, endpoint.path(ghost), {
        token: users[caller].token,
        body: endpoint.body?.(ghost),
      });
      expect(twin.status).toBe(404);
      expect(res.body).toEqual(twin.body);
    }
    if (status === 403) expect(res.body.errors[0].code).toBe('FORBIDDEN');
  });

  it('leaves hidden projects out of GET P for an organization member without access', async () => {
    for (const caller of ['org MEMBER only', 'denied P-ADMIN'] as const) {
      const res = await ctx.request('GET', P(shared), { token: users[caller].token });
      expect(res.body.data.map((p: any) => p.id)).not.toContain(shared.projectId);
    }
    const viewer = await ctx.request('GET', P(shared), { token: users['P-VIEWER'].token });
    expect(viewer.body.data.map((p: any) => p.id)).toEqual([shared.projectId]);
  });

  it('answers 404 for a project addressed through another organization the caller belongs to', async () => {
    const owner = users['org OWNER'];
    const other = await ctx.newOrganization(owner, 'Other');
    const res = await ctx.request('GET', `/organizations/${other}/projects/${shared.projectId}`, {
      token: owner.token,
    });
    expect(res.status).toBe(404);
    const del = await ctx.request(
      'DELETE',
      `/organizations/${other}/projects/${shared.projectId}`,
      {
        token: owner.token,
      },
    );
    expect(del.status).toBe(404);
    expect(
      await ctx.db.query('SELECT 1 FROM project WHERE id = $1', [Number(shared.projectId)]),
    ).toHaveLength(1);
  });
});
