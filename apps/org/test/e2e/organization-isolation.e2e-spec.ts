import { OrgTestContext, type TestUser } from '../support/org-test-app.js';

/**
 * Tenant isolation and role matrix of the organizations feature: every organization endpoint ×
 * {non-member, VIEWER, MEMBER, ADMIN, OWNER}. A non-member gets 404 on every path of a foreign
 * organization (docs/architecture.md § Identity and access: never 403, and the same body as for an
 * organization that does not exist); a member without the permission gets 403. A refused request
 * changes nothing (database rows and outbox); an allowed mutation does change something (so the
 * snapshot can tell).
 */
type Caller = 'non-member' | 'VIEWER' | 'MEMBER' | 'ADMIN' | 'OWNER';
const CALLERS: Caller[] = ['non-member', 'VIEWER', 'MEMBER', 'ADMIN', 'OWNER'];

interface Fixture {
  orgId: string;
  invitationId: string;
}

interface Endpoint {
  name: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: (f: Fixture) => string;
  body?: (f: Fixture) => unknown;
  mutates: boolean;
  /** Status per caller, in CALLERS order. */
  expected: [number, number, number, number, number];
}

describe('organization endpoints: isolation and role matrix', () => {
  let ctx: OrgTestContext;
  const users = {} as Record<Caller | 'target' | 'candidate', TestUser>;
  let shared: Fixture;

  beforeAll(async () => {
    ctx = await OrgTestContext.start({ INVITATION_RESEND_LIMIT: '1000' });
    for (const name of [...CALLERS, 'target', 'candidate'] as const) {
      users[name] = await ctx.newUser(name.replace(/[^a-z]/gi, '').toLowerCase());
    }
    shared = await buildFixture();
  });
  afterAll(() => ctx.close());

  /** An organization owned by OWNER with ADMIN, MEMBER, VIEWER and a target MEMBER, and one pending invitation. */
  async function buildFixture(): Promise<Fixture> {
    const owner = users.OWNER;
    const orgId = await ctx.newOrganization(owner, 'Matrix');
    await ctx.addMember(orgId, owner, users.ADMIN, 'ADMIN');
    await ctx.addMember(orgId, owner, users.MEMBER, 'MEMBER');
    await ctx.addMember(orgId, owner, users.VIEWER, 'VIEWER');
    await ctx.addMember(orgId, owner, users.target, 'MEMBER');
    const invitation = await ctx.request('POST', `/organizations/${orgId}/invitations`, {
      token: owner.token,
      body: {
        data: {
          type: 'membershipInvitation',
          attributes: { email: ctx.unknownEmail('pending'), orgRole: 'member' },
        },
      },
    });
    return { orgId, invitationId: invitation.body.data.id };
  }

  /** Everything an organization's endpoints could change, as one comparable string. */
  async function snapshot(orgId: string): Promise<string> {
    const id = Number(orgId);
    const q = (sql: string) => ctx.db.query(sql, [id]);
    return JSON.stringify({
      organization: await q('SELECT id, name, updated_at FROM organization WHERE id = $1'),
      memberships: await q(
        'SELECT user_id, role, version FROM organization_membership WHERE organization_id = $1 ORDER BY user_id',
      ),
      invitations: await q(
        'SELECT id, email, status, org_role, token_hash, send_count, expires_at FROM invitation WHERE organization_id = $1 ORDER BY id',
      ),
      projects: await q('SELECT id, name, is_default FROM project WHERE organization_id = $1'),
      versions: await q(
        'SELECT project_id, user_id, version FROM membership_version WHERE organization_id = $1 ORDER BY 1, 2',
      ),
      outbox: await ctx.db.query('SELECT count(*)::int AS n FROM outbox_message'),
    });
  }

  const ENDPOINTS: Endpoint[] = [
    {
      name: 'GET /organizations/{id}',
      method: 'GET',
      path: (f) => `/organizations/${f.orgId}?include=users,projects,organization_memberships`,
      mutates: false,
      expected: [404, 200, 200, 200, 200],
    },
    {
      name: 'PATCH /organizations/{id}',
      method: 'PATCH',
      path: (f) => `/organizations/${f.orgId}`,
      body: () => ({ data: { type: 'organization', attributes: { name: 'Renamed' } } }),
      mutates: true,
      expected: [404, 403, 403, 200, 200],
    },
    {
      name: 'GET /organizations/{id}/users',
      method: 'GET',
      path: (f) => `/organizations/${f.orgId}/users`,
      mutates: false,
      expected: [404, 200, 200, 200, 200],
    },
    {
      name: 'POST /organizations/{id}/add_user',
      method: 'POST',
      path: (f) => `/organizations/${f.orgId}/add_user`,
      body: () => ({
        data: { type: 'users', attributes: { email: users.candidate.email, role: 'MEMBER' } },
      }),
      mutates: true,
      expected: [404, 403, 403, 201, 201],
    },
    {
      name: 'POST /organizations/{id}/invitations',
      method: 'POST',
      path: (f) => `/organizations/${f.orgId}/invitations`,
      body: () => ({
        data: {
          type: 'membershipInvitation',
          attributes: { email: ctx.unknownEmail('m'), orgRole: 'viewer' },
        },
      }),
      mutates: true,
      expected: [404, 403, 403, 201, 201],
    },
    {
      name: 'GET /organizations/{id}/invitations',
      method: 'GET',
      path: (f) => `/organizations/${f.orgId}/invitations`,
      mutates: false,
      expected: [404, 403, 403, 200, 200],
    },
    {
      name: 'POST /organizations/{id}/invitations/{invitationId}/resend',
      method: 'POST',
      path: (f) => `/organizations/${f.orgId}/invitations/${f.invitationId}/resend`,
      mutates: true,
      expected: [404, 403, 403, 200, 200],
    },
    {
      name: 'PATCH /organizations/{id}/invitations/{invitationId}',
      method: 'PATCH',
      path: (f) => `/organizations/${f.orgId}/invitations/${f.invitationId}`,
      body: () => ({ data: { attributes: { orgRole: 'viewer' } } }),
      mutates: true,
      expected: [404, 403, 403, 200, 200],
    },
    {
      name: 'DELETE /organizations/{id}/invitations/{invitationId}',
      method: 'DELETE',
      path: (f) => `/organizations/${f.orgId}/invitations/${f.invitationId}`,
      mutates: true,
      expected: [404, 403, 403, 204, 204],
    },
    {
      name: 'PATCH /organizations/{id}/members/{userId}/role',
      method: 'PATCH',
      path: (f) => `/organizations/${f.orgId}/members/${users.target.id}/role`,
      body: () => ({ role: 'VIEWER' }),
      mutates: true,
      expected: [404, 403, 403, 200, 200],
    },
    {
      name: 'DELETE /organizations/{id}/remove_user/{userId}',
      method: 'DELETE',
      path: (f) => `/organizations/${f.orgId}/remove_user/${users.target.id}`,
      mutates: true,
      expected: [404, 403, 403, 204, 204],
    },
  ];

  const cells = ENDPOINTS.flatMap((endpoint) =>
    CALLERS.map((caller, i) => ({ endpoint, caller, status: endpoint.expected[i] })),
  );

  it.each(cells.map((c) => [c.endpoint.name, c.caller, c.status, c] as const))(
    '%s as %s answers %i',
    async (_name, caller, status, { endpoint }) => {
      const allowedWrite = endpoint.mutates && status < 300;
      const fixture = allowedWrite ? await buildFixture() : shared;
      const before = await snapshot(fixture.orgId);
      const res = await ctx.request(endpoint.method, endpoint.path(fixture), {
        token: users[caller].token,
        body: endpoint.body?.(fixture),
      });
      expect(res.status).toBe(status);
      const after = await snapshot(fixture.orgId);
      if (allowedWrite) expect(after).not.toEqual(before);
      else expect(after).toEqual(before);
      if (status === 404) {
        // indistinguishable from an organization that does not exist
        const ghost = await ctx.request(
          endpoint.method,
          endpoint.path({ ...fixture, orgId: '2147483000' }),
          { token: users[caller].token, body: endpoint.body?.(fixture) },
        );
        expect(ghost.status).toBe(404);
        expect(res.body).toEqual(ghost.body);
      }
      if (status === 403) expect(res.body.errors[0].code).toBe('FORBIDDEN');
    },
  );

  it('leaves foreign organizations out of GET /organizations', async () => {
    const res = await ctx.request('GET', '/organizations', { token: users['non-member'].token });
    expect(res.status).toBe(200);
    expect(res.body.data.map((o: any) => o.id)).not.toContain(shared.orgId);
    const member = await ctx.request('GET', '/organizations', { token: users.VIEWER.token });
    expect(member.body.data.map((o: any) => o.id)).toContain(shared.orgId);
  });
});
