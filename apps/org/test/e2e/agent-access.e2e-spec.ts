import { randomUUID } from 'node:crypto';
import { IS_PUBLIC, NO_API_KEY } from '@wp/http';
import { AGENT_ACCESS } from '@wp/security';
import { auditRoutes, signAccessToken, waitFor } from '@wp/testing';
import { OrgTestContext, type TestUser } from '../support/org-test-app.js';

/**
 * Sentinel Pass agent tokens on the org service (docs/org.md § Agent tokens): an agent
 * is confined to its project. Routes opened to agents (`@AgentAccess`) check the pass's
 * permissions through the project permission table (`projects:read` → `GET P/{id}`,
 * `GET P/{id}/users`); a permission the pass lacks is 403 `AGENT_FORBIDDEN`, as is any route not
 * opened to agents on its own organization or project and any route with no project scope;
 * another project or organization is 404 with exactly the body of one that does not exist.
 * Refused requests change nothing, and every agent request is recorded as activity.
 */
describe('org: agent (Sentinel Pass) tokens', () => {
  let ctx: OrgTestContext;
  let owner: TestUser;
  let stranger: TestUser;
  let orgId: string;
  let projectId: string;
  let siblingId: string;
  let foreignOrgId: string;
  let foreignProjectId: string;
  const passId = randomUUID();

  /** An agent access token as auth issues one (ES256, the environment's key). */
  function agentToken(
    permissions: string[],
    options: { pass?: string; organizationId?: string; projectId?: string; bound?: boolean } = {},
  ): Promise<string> {
    const bound = options.bound ?? true;
    return signAccessToken(
      ctx.env.keys.jwtPrivateKey,
      options.pass ?? passId,
      {
        iss: ctx.env.env['JWT_ISSUER'] ?? 'workspace-platform',
        typ: 'agent',
        app: 'test-app',
        ...(bound
          ? {
              org: Number(options.organizationId ?? orgId),
              prj: Number(options.projectId ?? projectId),
              scp: [],
              prm: permissions,
            }
          : {}),
      },
      900,
    );
  }

  /** Every route answers 403 `AGENT_FORBIDDEN` to `token` (the pair names the failing route). */
  async function expectAgentForbidden(token: string, routes: [string, string, unknown?][]) {
    for (const [method, path, body] of routes) {
      const res = await ctx.request(method as 'GET', path, { token, body });
      expect([method, path, res.status, code(res)]).toEqual([method, path, 403, 'AGENT_FORBIDDEN']);
    }
  }

  const READER = () => agentToken(['projects:read']);
  const WALLETS_ONLY = () => agentToken(['wallets:read', 'wallets:debit']);
  const code = (res: { body: any }) => res.body?.errors?.[0]?.code as string | undefined;
  const P = () => `/organizations/${orgId}/projects/${projectId}`;

  beforeAll(async () => {
    ctx = await OrgTestContext.start();
    owner = await ctx.newUser('owner');
    stranger = await ctx.newUser('stranger');
    orgId = await ctx.newOrganization(owner, 'Agents Inc');
    projectId = await ctx.newProject(orgId, owner, 'Bots');
    siblingId = await ctx.newProject(orgId, owner, 'Sibling');
    foreignOrgId = await ctx.newOrganization(stranger, 'Elsewhere');
    foreignProjectId = await ctx.newProject(foreignOrgId, stranger, 'Foreign');
  }, 120_000);
  afterAll(() => ctx.close());

  it('opens exactly the agent routes of docs/org.md § Agent tokens (a route added to it fails here)', () => {
    const opened = auditRoutes(ctx.org, {
      isPublic: IS_PUBLIC,
      noApiKey: NO_API_KEY,
      agentAccess: AGENT_ACCESS,
    })
      .filter((r) => r.agentAccess)
      .map((r) => r.route)
      .sort();
    expect(opened).toEqual([
      'GET /organizations/:organizationId/projects/:projectId',
      'GET /organizations/:organizationId/projects/:projectId/sentinel_passes',
      'GET /organizations/:organizationId/projects/:projectId/sentinel_passes/:passId',
      'GET /organizations/:organizationId/projects/:projectId/users',
    ]);
  });

  describe('sentinel_passes:read', () => {
    it("lists and reads its project's passes (never keys); without the permission 403, elsewhere 404", async () => {
      const created = await ctx.request('POST', `${P()}/sentinel_passes`, {
        token: owner.token,
        body: { sentinelPass: { title: 'Reader bot', permissions: ['projects:read'] } },
      });
      expect(created.status).toBe(201);
      const id = created.body.data.id as string;
      const token = await agentToken(['sentinel_passes:read']);

      const list = await ctx.request('GET', `${P()}/sentinel_passes`, { token });
      expect(list.status).toBe(200);
      expect(list.body.data.map((p: { id: string }) => p.id)).toContain(id);
      expect(JSON.stringify(list.body)).not.toContain(created.body.meta.secret);
      const one = await ctx.request('GET', `${P()}/sentinel_passes/${id}`, { token });
      expect(one.status).toBe(200);
      expect(one.body.data.id).toBe(id);

      const reader = await ctx.request('GET', `${P()}/sentinel_passes`, { token: await READER() });
      expect(reader.status).toBe(403);
      expect(code(reader)).toBe('AGENT_FORBIDDEN');
      const revoke = await ctx.request('POST', `${P()}/sentinel_passes/${id}/revoke`, { token });
      expect(revoke.status).toBe(403);
      const sibling = await ctx.request(
        'GET',
        `/organizations/${orgId}/projects/${siblingId}/sentinel_passes`,
        { token },
      );
      expect(sibling.status).toBe(404);
    });
  });

  describe('projects:read', () => {
    it('reads its project, with meta.can from the pass permissions and no role', async () => {
      const res = await ctx.request('GET', P(), { token: await READER() });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ type: 'project', id: projectId });
      expect(res.body.data.attributes.name).toBe('Bots');
      expect(res.body.meta.role).toBeNull();
      expect(res.body.meta.can.project).toMatchObject({ read: true, update: false, delete: false });
      expect(res.body.meta.can.wallet).toMatchObject({ read: false, debit: false });
    });

    it('lists its project members, also through include=users', async () => {
      const users = await ctx.request('GET', `${P()}/users`, { token: await READER() });
      expect(users.status).toBe(200);
      expect(users.body.data.map((u: { id: string }) => u.id)).toEqual([owner.id]);
      const included = await ctx.request('GET', `${P()}?include=users`, { token: await READER() });
      expect(included.status).toBe(200);
      expect(included.body.included.map((u: { id: string }) => u.id)).toEqual([owner.id]);
    });

    it('answers 403 AGENT_FORBIDDEN for what projects:read does not grant: secrets, keys', async () => {
      for (const query of ['?secret=true', '?include=apiKeys', '?include=llmApiKeys']) {
        const res = await ctx.request('GET', `${P()}${query}`, { token: await READER() });
        expect([query, res.status, code(res)]).toEqual([query, 403, 'AGENT_FORBIDDEN']);
      }
    });

    it('answers 403 AGENT_FORBIDDEN without projects:read', async () => {
      for (const path of [P(), `${P()}/users`]) {
        const res = await ctx.request('GET', path, { token: await WALLETS_ONLY() });
        expect([path, res.status, code(res)]).toEqual([path, 403, 'AGENT_FORBIDDEN']);
      }
    });
  });

  describe('other projects and organizations', () => {
    it('answers 404 exactly as for a project or organization that does not exist', async () => {
      const token = await agentToken(['projects:read', 'sentinel_passes:read', 'wallets:transact']);
      // What a user gets for a project / organization that does not exist: the reference body.
      const missingProject = await ctx.request('GET', `/organizations/${orgId}/projects/999999`, {
        token: owner.token,
      });
      expect(missingProject.status).toBe(404);
      const missingOrg = await ctx.request('GET', '/organizations/999999/projects/1', {
        token: owner.token,
      });
      expect(missingOrg.status).toBe(404);
      for (const path of [
        `/organizations/${orgId}/projects/999999`,
        '/organizations/999999/projects/1',
      ]) {
        expect((await ctx.request('GET', path, { token })).body).toEqual(
          path.startsWith('/organizations/999999') ? missingOrg.body : missingProject.body,
        );
      }
      const cases: [string, string, typeof missingProject][] = [
        ['GET', `/organizations/${orgId}/projects/${siblingId}`, missingProject],
        ['GET', `/organizations/${orgId}/projects/${siblingId}/users`, missingProject],
        ['PATCH', `/organizations/${orgId}/projects/${siblingId}`, missingProject],
        ['DELETE', `/organizations/${orgId}/projects/${siblingId}`, missingProject],
        ['GET', `/organizations/${orgId}/projects/${foreignProjectId}`, missingProject],
        ['GET', `/organizations/${foreignOrgId}/projects/${foreignProjectId}`, missingOrg],
        ['GET', `/organizations/${foreignOrgId}/projects/${foreignProjectId}/users`, missingOrg],
        ['GET', `/organizations/${foreignOrgId}`, missingOrg],
        ['GET', `/organizations/${foreignOrgId}/users`, missingOrg],
        ['GET', `/organizations/${foreignOrgId}/projects`, missingOrg],
      ];
      for (const [method, path, expected] of cases) {
        const res = await ctx.request(method as 'GET', path, {
          token,
          body:
            method === 'PATCH'
              ? { data: { id: siblingId, type: 'project', attributes: { name: 'x' } } }
              : undefined,
        });
        expect([method, path, res.status, res.body]).toEqual([method, path, 404, expected.body]);
      }
      const [sibling] = await ctx.db.query('SELECT name FROM project WHERE id = $1', [
        Number(siblingId),
      ]);
      expect(sibling.name).toBe('Sibling');
    });

    it('is confined by its token: the same pass bound to another project reads that one only', async () => {
      const token = await agentToken(['projects:read'], { projectId: siblingId });
      expect(
        (await ctx.request('GET', `/organizations/${orgId}/projects/${siblingId}`, { token }))
          .status,
      ).toBe(200);
      expect((await ctx.request('GET', P(), { token })).status).toBe(404);
    });
  });

  describe('routes not opened to agents', () => {
    it('answers 403 AGENT_FORBIDDEN on its own project and organization, and changes nothing', async () => {
      const token = await agentToken(['projects:read', 'sentinel_passes:read', 'wallets:transact']);
      const outboxBefore = (await ctx.outbox()).length;
      const routes: [string, string, unknown?][] = [
        ['PATCH', P(), { data: { id: projectId, type: 'project', attributes: { name: 'Pwned' } } }],
        ['DELETE', P()],
        ['POST', `${P()}/api_keys`, { data: { attributes: { note: 'agent key' } } }],
        [
          'POST',
          `${P()}/add_user`,
          {
            data: { type: 'users', attributes: { email: stranger.email } },
            role: 'ADMIN',
            project_only: true,
          },
        ],
        ['GET', `${P()}/invitations`],
        ['POST', `${P()}/deny_access/${owner.id}`],
        ['GET', `/organizations/${orgId}/projects`],
        [
          'POST',
          `/organizations/${orgId}/projects`,
          { data: { type: 'project', attributes: { name: 'Agent made' } } },
        ],
        ['GET', `/organizations/${orgId}`],
        [
          'PATCH',
          `/organizations/${orgId}`,
          { data: { id: orgId, type: 'organization', attributes: { name: 'Pwned' } } },
        ],
        ['GET', `/organizations/${orgId}/users`],
        ['GET', `/organizations/${orgId}/api_keys`],
        ['GET', `/organizations/${orgId}/invitations`],
      ];
      await expectAgentForbidden(token, routes);
      const [project] = await ctx.db.query('SELECT name FROM project WHERE id = $1', [
        Number(projectId),
      ]);
      expect(project.name).toBe('Bots');
      const events = (await ctx.outbox()).slice(outboxBefore);
      expect(events.filter((e) => e.subject !== 'org.activity.recorded')).toEqual([]);
    });

    it('answers 403 AGENT_FORBIDDEN on routes with no project scope', async () => {
      const token = await agentToken(['projects:read']);
      const routes: [string, string, unknown?][] = [
        ['GET', '/organizations'],
        [
          'POST',
          '/organizations',
          { data: { type: 'organization', attributes: { name: 'Agent org' } } },
        ],
        ['GET', '/me/pending_invitations'],
        ['POST', `/me/accept_invitation/${randomUUID()}`],
      ];
      await expectAgentForbidden(token, routes);
    });

    it('refuses an agent token that is not bound to a project (403)', async () => {
      const res = await ctx.request('GET', P(), { token: await agentToken([], { bound: false }) });
      expect(res.status).toBe(403);
      expect(code(res)).toBe('AGENT_FORBIDDEN');
    });

    it('leaves users as they were', async () => {
      expect((await ctx.request('GET', P(), { token: owner.token })).status).toBe(200);
      expect((await ctx.request('GET', P(), { token: stranger.token })).status).toBe(404);
    });
  });

  it('records every agent request, granted or refused, as activity of the pass', async () => {
    const probe = randomUUID();
    const calls: [string, string, number][] = [
      ['GET', P(), 200],
      ['GET', `${P()}/users`, 200],
      ['GET', `${P()}?secret=true`, 403],
      ['GET', `/organizations/${orgId}/projects/${siblingId}`, 404],
      ['GET', '/organizations', 403],
    ];
    for (const [method, path, status] of calls) {
      const res = await ctx.request(method as 'GET', path, {
        token: await agentToken(['projects:read'], { pass: probe }),
      });
      expect([path, res.status]).toEqual([path, status]);
    }
    const recorded = await waitFor(
      async () => {
        const entries = (await ctx.outbox('org.activity.recorded'))
          .flatMap((row) => row.payload.entries as { agentUserId: string }[])
          .filter((e) => e.agentUserId === probe);
        return entries.length >= calls.length ? entries : undefined;
      },
      { timeoutMs: 10_000, what: 'agent activity in the outbox' },
    );
    expect(recorded).toHaveLength(calls.length);
    expect(
      (recorded as unknown as { statusCode: number; activityType: string; endpoint: string }[])
        .map((e) => [e.endpoint, e.statusCode, e.activityType])
        .sort(),
    ).toEqual(
      [
        ['/v1/api/organizations/:organizationId/projects/:projectId', 200, 'api_request'],
        ['/v1/api/organizations/:organizationId/projects/:projectId/users', 200, 'api_request'],
        ['/v1/api/organizations/:organizationId/projects/:projectId', 403, 'error'],
        ['/v1/api/organizations/:organizationId/projects/:projectId', 404, 'error'],
        ['/v1/api/organizations', 403, 'error'],
      ].sort(),
    );
  });
});
