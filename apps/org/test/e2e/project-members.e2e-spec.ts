import { OrgTestContext, type TestUser } from '../support/org-test-app.js';

/**
 * docs/api.md § Projects (users, add_user, members/{userId}/role, remove_user, deny_access,
 * restore_access), docs/api.md § States and transitions (Project access), docs/api.md § Errors
 * (role codes); docs/architecture.md § Identity and access (denied access hides the project, takes
 * effect on the next request) and docs/architecture.md § Request bodies (top-level and
 * data.attributes forms).
 */
describe('project members and access', () => {
  let ctx: OrgTestContext;
  let owner: TestUser;
  let orgId: string;

  beforeAll(async () => {
    ctx = await OrgTestContext.start();
    owner = await ctx.newUser('owner');
    orgId = await ctx.newOrganization(owner, 'Members');
  });
  afterAll(() => ctx.close());

  const P = (projectId: string) => `/organizations/${orgId}/projects/${projectId}`;
  const standing = async (projectId: string, userId: string) =>
    (
      await ctx.db.query(
        'SELECT role, access_denied FROM project_membership WHERE project_id = $1 AND user_id = $2',
        [Number(projectId), userId],
      )
    )[0] ?? null;
  const orgRole = async (userId: string) =>
    (
      await ctx.db.query(
        'SELECT role FROM organization_membership WHERE organization_id = $1 AND user_id = $2',
        [Number(orgId), userId],
      )
    )[0]?.role ?? null;
  const addUser = (projectId: string, actor: TestUser, body: unknown) =>
    ctx.request('POST', `${P(projectId)}/add_user`, { token: actor.token, body });

  describe('POST P/{id}/add_user', () => {
    it('adds project-only (project_only true): no organization membership, yet the organization is visible', async () => {
      const projectId = await ctx.newProject(orgId, owner, 'Solo');
      const user = await ctx.newUser('contractor');
      const res = await addUser(projectId, owner, {
        data: { type: 'users', attributes: { email: user.email } },
        role: 'MEMBER',
        project_only: true,
      });
      expect(res.status).toBe(201);
      expect(res.body.meta.result).toBe('member_added');
      expect(res.body.data).toMatchObject({
        type: 'users',
        id: user.id,
        attributes: { role: 'MEMBER', accessDenied: false, organizationRole: null },
      });
      expect(await orgRole(user.id)).toBeNull();
      const orgs = await ctx.request('GET', '/organizations', { token: user.token });
      const seen = orgs.body.data.find((o: any) => o.id === orgId);
      expect(seen.meta.role).toBeNull();
      expect(seen.meta.can.organization.read).toBe(false);
      expect(seen.relationships.projects.data).toEqual([{ type: 'project', id: projectId }]);
      // the organization's members stay hidden from a project-only member
      expect(seen.relationships.users.data).toEqual([]);
      const users = await ctx.request('GET', `/organizations/${orgId}/users`, {
        token: user.token,
      });
      expect(users.status).toBe(403);
      const included = await ctx.request('GET', `/organizations/${orgId}?include=users`, {
        token: user.token,
      });
      expect(included.status).toBe(403);
      const projectsOnly = await ctx.request('GET', `/organizations/${orgId}?include=projects`, {
        token: user.token,
      });
      expect(projectsOnly.status).toBe(200);
      expect(projectsOnly.body.included.map((r: any) => r.id)).toEqual([projectId]);
      const list = await ctx.request('GET', `/organizations/${orgId}/projects`, {
        token: user.token,
      });
      expect(list.body.data.map((p: any) => p.id)).toEqual([projectId]);
      expect(list.body.data[0].meta.role).toBe('MEMBER');
      const [{ members_count }] = await ctx.db.query(
        'SELECT members_count FROM project WHERE id = $1',
        [Number(projectId)],
      );
      expect(members_count).toBe(2);
    });

    it('adds to the organization too (organization_role, data.attributes form) unless already a member', async () => {
      const projectId = await ctx.newProject(orgId, owner, 'Both');
      const user = await ctx.newUser('both');
      const res = await addUser(projectId, owner, {
        data: {
          type: 'users',
          attributes: {
            email: user.email,
            role: 'viewer',
            organization_role: 'member',
            project_only: false,
          },
        },
      });
      expect(res.status).toBe(201);
      expect(await orgRole(user.id)).toBe('MEMBER');
      expect(await standing(projectId, user.id)).toEqual({ role: 'VIEWER', access_denied: false });

      const second = await ctx.newProject(orgId, owner, 'Second');
      await addUser(second, owner, {
        data: { type: 'users', attributes: { email: user.email } },
        role: 'ADMIN',
        organization_role: 'OWNER',
      });
      expect(await orgRole(user.id)).toBe('MEMBER'); // an existing organization role is kept
      expect((await standing(second, user.id)).role).toBe('ADMIN');
    });

    it('requires role, and organization_role ≥ role unless project_only (400)', async () => {
      const projectId = await ctx.newProject(orgId, owner, 'Rules');
      const user = await ctx.newUser('rules');
      const data = { type: 'users', attributes: { email: user.email } };
      const cases: [unknown, string][] = [
        [{ data }, '/role'],
        [{ data, role: 'MEMBER' }, '/organization_role'],
        [{ data, role: 'ADMIN', organization_role: 'MEMBER' }, '/organization_role'],
        [{ data, role: 'ADMIN', project_only: 'yes' }, '/project_only'],
        [{ data: { ...data, type: 'user' }, role: 'MEMBER', project_only: true }, '/data/type'],
      ];
      for (const [body, pointer] of cases) {
        const res = await addUser(projectId, owner, body);
        expect(res.status).toBe(400);
        expect(res.body.errors.map((e: any) => e.source.pointer)).toContain(pointer);
      }
      expect(await standing(projectId, user.id)).toBeNull();
    });

    it('invites an unknown email to the project instead (invitation_sent)', async () => {
      const projectId = await ctx.newProject(orgId, owner, 'Invites');
      const email = ctx.unknownEmail('newbie');
      const mark = await ctx.outboxMark();
      const res = await addUser(projectId, owner, {
        data: { type: 'users', attributes: { email } },
        role: 'MEMBER',
        organization_role: 'VIEWER',
      });
      // organization_role VIEWER is below MEMBER: refused before anything else
      expect(res.status).toBe(400);
      const ok = await addUser(projectId, owner, {
        data: { type: 'users', attributes: { email } },
        role: 'MEMBER',
        project_only: true,
      });
      expect(ok.status).toBe(201);
      expect(ok.body.meta.result).toBe('invitation_sent');
      expect(ok.body.data.attributes).toMatchObject({
        email,
        projectRole: 'member',
        orgRole: null,
        projectOnly: true,
        projectId,
      });
      const [mail] = (await ctx.outbox('notify.requested', mark)).filter(
        (m) => m.payload.to === email,
      );
      expect(mail.payload.subject).toBe('Invitation to Invites (Members)');
    });

    it('lets a project ADMIN (organization MEMBER) add project-only, but not grant organization membership (403) nor OWNER (403 INSUFFICIENT_PERMISSIONS)', async () => {
      const projectId = await ctx.newProject(orgId, owner, 'Delegated');
      const lead = await ctx.newUser('lead');
      await ctx.addMember(orgId, owner, lead, 'MEMBER');
      await ctx.addProjectMember(orgId, projectId, owner, lead, 'ADMIN');
      const [a, b, c] = [await ctx.newUser('a'), await ctx.newUser('b'), await ctx.newUser('c')];
      const data = (u: TestUser) => ({ type: 'users', attributes: { email: u.email } });
      const ok = await addUser(projectId, lead, {
        data: data(a),
        role: 'MEMBER',
        project_only: true,
      });
      expect(ok.status).toBe(201);
      const orgGrant = await addUser(projectId, lead, {
        data: data(b),
        role: 'MEMBER',
        organization_role: 'MEMBER',
      });
      expect(orgGrant.status).toBe(403);
      expect(orgGrant.body.errors[0].code).toBe('FORBIDDEN');
      expect(await orgRole(b.id)).toBeNull();
      expect(await standing(projectId, b.id)).toBeNull();
      const above = await addUser(projectId, lead, {
        data: data(c),
        role: 'OWNER',
        project_only: true,
      });
      expect(above.status).toBe(403);
      expect(above.body.errors[0].code).toBe('INSUFFICIENT_PERMISSIONS');
      const dup = await addUser(projectId, lead, {
        data: data(a),
        role: 'VIEWER',
        project_only: true,
      });
      expect(dup.status).toBe(409);
      expect(dup.body.errors[0].code).toBe('ALREADY_MEMBER');
    });
  });
});
