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
  const projectEvents = async (projectId: string, userId: string) =>
    (await ctx.outbox('org.membership.changed'))
      .map((e) => e.payload)
      .filter((p) => p.projectId === Number(projectId) && p.userId === userId);
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

  describe('GET P/{id}/users, role changes and removal', () => {
    it('lists members with role, accessDenied and organizationRole', async () => {
      const projectId = await ctx.newProject(orgId, owner, 'Listed');
      const user = await ctx.newUser('listed');
      await ctx.addProjectMember(orgId, projectId, owner, user, 'VIEWER');
      const res = await ctx.request('GET', `${P(projectId)}/users`, { token: user.token });
      expect(res.status).toBe(200);
      const byId = Object.fromEntries(res.body.data.map((u: any) => [u.id, u.attributes]));
      expect(byId[owner.id]).toMatchObject({
        role: 'OWNER',
        organizationRole: 'OWNER',
        accessDenied: false,
      });
      expect(byId[user.id]).toMatchObject({
        role: 'VIEWER',
        organizationRole: null,
        email: user.email,
      });
    });

    it('changes roles with the organization codes: CANNOT_CHANGE_OWN_ROLE 422, INSUFFICIENT_PERMISSIONS 403', async () => {
      const projectId = await ctx.newProject(orgId, owner, 'Roles');
      const lead = await ctx.newUser('lead');
      const dev = await ctx.newUser('dev');
      await ctx.addProjectMember(orgId, projectId, owner, lead, 'ADMIN');
      await ctx.addProjectMember(orgId, projectId, owner, dev, 'VIEWER');
      const set = (actor: TestUser, userId: string, body: unknown) =>
        ctx.request('PATCH', `${P(projectId)}/members/${userId}/role`, {
          token: actor.token,
          body,
        });

      const ok = await set(lead, dev.id, { data: { attributes: { role: 'MEMBER' } } });
      expect(ok.status).toBe(200);
      expect(ok.body.data.attributes.role).toBe('MEMBER');
      const self = await set(lead, lead.id, { role: 'VIEWER' });
      expect(self.status).toBe(422);
      expect(self.body.errors[0].code).toBe('CANNOT_CHANGE_OWN_ROLE');
      const promote = await set(lead, dev.id, { role: 'OWNER' });
      expect(promote.status).toBe(403);
      expect(promote.body.errors[0].code).toBe('INSUFFICIENT_PERMISSIONS');
      const touchOwner = await set(lead, owner.id, { role: 'MEMBER' });
      expect(touchOwner.status).toBe(403);
      expect(touchOwner.body.errors[0].code).toBe('INSUFFICIENT_PERMISSIONS');
      const byViewer = await set(dev, lead.id, { role: 'VIEWER' });
      expect(byViewer.status).toBe(403);
      expect(byViewer.body.errors[0].code).toBe('FORBIDDEN');
      const notMember = await set(owner, (await ctx.newUser('x')).id, { role: 'VIEWER' });
      expect(notMember.status).toBe(404);
      expect((await standing(projectId, dev.id)).role).toBe('MEMBER');
      expect((await standing(projectId, lead.id)).role).toBe('ADMIN');
      expect((await projectEvents(projectId, dev.id)).map((e) => [e.role, e.version])).toEqual([
        ['VIEWER', 1],
        ['MEMBER', 2],
      ]);
    });

    it('removes a member (204, role null), lets a member leave, and recounts members', async () => {
      const projectId = await ctx.newProject(orgId, owner, 'Removal');
      const [a, b] = [await ctx.newUser('ra'), await ctx.newUser('rb')];
      await ctx.addProjectMember(orgId, projectId, owner, a, 'MEMBER');
      await ctx.addProjectMember(orgId, projectId, owner, b, 'VIEWER');
      expect(
        (await ctx.request('DELETE', `${P(projectId)}/remove_user/${a.id}`, { token: owner.token }))
          .status,
      ).toBe(204);
      expect(
        (await ctx.request('DELETE', `${P(projectId)}/remove_user/${b.id}`, { token: b.token }))
          .status,
      ).toBe(204);
      expect(await standing(projectId, a.id)).toBeNull();
      expect(await standing(projectId, b.id)).toBeNull();
      expect((await projectEvents(projectId, a.id)).at(-1)).toMatchObject({
        role: null,
        version: 2,
      });
      const got = await ctx.request('GET', P(projectId), { token: owner.token });
      expect(got.body.data.attributes.membersCount).toBe(1);
      const gone = await ctx.request('GET', P(projectId), { token: b.token });
      expect(gone.status).toBe(404);
    });

    it('removes the project memberships of a user removed from the organization', async () => {
      const projectId = await ctx.newProject(orgId, owner, 'Cascade');
      const user = await ctx.newUser('cascade');
      await ctx.addMember(orgId, owner, user, 'MEMBER');
      await ctx.addProjectMember(orgId, projectId, owner, user, 'MEMBER');
      const res = await ctx.request('DELETE', `/organizations/${orgId}/remove_user/${user.id}`, {
        token: owner.token,
      });
      expect(res.status).toBe(204);
      expect(await standing(projectId, user.id)).toBeNull();
      expect((await projectEvents(projectId, user.id)).at(-1)).toMatchObject({ role: null });
      const orgs = await ctx.request('GET', '/organizations', { token: user.token });
      expect(orgs.body.data.map((o: any) => o.id)).not.toContain(orgId);
    });
  });

  describe('deny_access and restore_access', () => {
    let projectId: string;
    let user: TestUser;

    beforeAll(async () => {
      projectId = await ctx.newProject(orgId, owner, 'Guarded');
      user = await ctx.newUser('guarded');
      await ctx.addMember(orgId, owner, user, 'MEMBER');
      await ctx.addProjectMember(orgId, projectId, owner, user, 'ADMIN');
    });

    it('denies: the project disappears for the user on the next request, organization membership kept', async () => {
      const before = await ctx.request('GET', P(projectId), { token: user.token });
      expect(before.status).toBe(200);
      const res = await ctx.request('POST', `${P(projectId)}/deny_access/${user.id}`, {
        token: owner.token,
      });
      expect(res.status).toBe(200);
      expect(res.body.data.attributes).toMatchObject({ role: 'ADMIN', accessDenied: true });
      expect(await standing(projectId, user.id)).toEqual({ role: 'ADMIN', access_denied: true });

      expect((await ctx.request('GET', P(projectId), { token: user.token })).status).toBe(404);
      const list = await ctx.request('GET', `/organizations/${orgId}/projects`, {
        token: user.token,
      });
      expect(list.body.data.map((p: any) => p.id)).not.toContain(projectId);
      const keys = await ctx.request('POST', `${P(projectId)}/api_keys`, {
        token: user.token,
        body: { data: { attributes: { note: 'sneaky' } } },
      });
      expect(keys.status).toBe(404);
      const org = await ctx.request('GET', `/organizations/${orgId}`, { token: user.token });
      expect(org.status).toBe(200);
      expect(await orgRole(user.id)).toBe('MEMBER');
      const got = await ctx.request('GET', P(projectId), { token: owner.token });
      expect(got.body.data.attributes.membersCount).toBe(1);
      expect((await projectEvents(projectId, user.id)).at(-1)).toMatchObject({
        role: 'ADMIN',
        accessDenied: true,
      });
    });

    it('answers 409 ACCESS_ALREADY_DENIED when denying again, and nothing changes', async () => {
      const mark = await ctx.outboxMark();
      const res = await ctx.request('POST', `${P(projectId)}/deny_access/${user.id}`, {
        token: owner.token,
      });
      expect(res.status).toBe(409);
      expect(res.body.errors[0].code).toBe('ACCESS_ALREADY_DENIED');
      expect(await ctx.outbox(undefined, mark)).toEqual([]);
    });

    it('restores with the previous role when no role is given (no body at all)', async () => {
      const res = await ctx.request('POST', `${P(projectId)}/restore_access/${user.id}`, {
        token: owner.token,
      });
      expect(res.status).toBe(200);
      expect(res.body.data.attributes).toMatchObject({ role: 'ADMIN', accessDenied: false });
      const back = await ctx.request('GET', P(projectId), { token: user.token });
      expect(back.status).toBe(200);
      expect(back.body.meta.role).toBe('ADMIN');
      const again = await ctx.request('POST', `${P(projectId)}/restore_access/${user.id}`, {
        token: owner.token,
      });
      expect(again.status).toBe(409);
      expect(again.body.errors[0].code).toBe('ACCESS_NOT_DENIED');
    });

    it('restores with a given role (top level or data.attributes)', async () => {
      await ctx.request('POST', `${P(projectId)}/deny_access/${user.id}`, { token: owner.token });
      const res = await ctx.request('POST', `${P(projectId)}/restore_access/${user.id}`, {
        token: owner.token,
        body: { data: { attributes: { role: 'viewer' } } },
      });
      expect(res.status).toBe(200);
      expect(await standing(projectId, user.id)).toEqual({ role: 'VIEWER', access_denied: false });
      const bad = await ctx.request('POST', `${P(projectId)}/restore_access/${user.id}`, {
        token: owner.token,
        body: { role: 'CHIEF' },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.errors[0].source.pointer).toBe('/role');
    });

    it('publishes every transition with a strictly increasing version', async () => {
      const events = await projectEvents(projectId, user.id);
      expect(events.map((e) => [e.role, e.accessDenied])).toEqual([
        ['ADMIN', false],
        ['ADMIN', true],
        ['ADMIN', false],
        ['ADMIN', true],
        ['VIEWER', false],
      ]);
      const versions = events.map((e) => e.version);
      expect(versions).toEqual([1, 2, 3, 4, 5]);
    });

    it('refuses denying oneself (422), an organization ADMIN (422), and by a project VIEWER (403)', async () => {
      const orgAdmin = await ctx.newUser('org-admin');
      await ctx.addMember(orgId, owner, orgAdmin, 'ADMIN');
      await ctx.addProjectMember(orgId, projectId, owner, orgAdmin, 'MEMBER', 'ADMIN');
      const self = await ctx.request('POST', `${P(projectId)}/deny_access/${owner.id}`, {
        token: owner.token,
      });
      expect(self.status).toBe(422);
      expect(self.body.errors[0].code).toBe('CANNOT_CHANGE_OWN_ROLE');
      const admin = await ctx.request('POST', `${P(projectId)}/deny_access/${orgAdmin.id}`, {
        token: owner.token,
      });
      expect(admin.status).toBe(422);
      expect(admin.body.errors[0].code).toBe('CANNOT_DENY_ORGANIZATION_ADMIN');
      const byViewer = await ctx.request('POST', `${P(projectId)}/deny_access/${orgAdmin.id}`, {
        token: user.token,
      });
      expect(byViewer.status).toBe(403);
      expect((await standing(projectId, orgAdmin.id)).access_denied).toBe(false);
      const unknown = await ctx.request(
        'POST',
        `${P(projectId)}/deny_access/${(await ctx.newUser('n')).id}`,
        {
          token: owner.token,
        },
      );
      expect(unknown.status).toBe(404);
    });
  });
});
