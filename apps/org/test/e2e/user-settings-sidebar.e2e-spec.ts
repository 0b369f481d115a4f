import { organizationCan, type Role } from '@wp/contracts';
import { OrgTestContext, type TestUser } from '../support/org-test-app.js';
import { countQueries } from '../support/query-count.js';
import { userSettingsHelpers } from '../support/user-settings.js';

/**
 * docs/api.md § User settings object and docs/api.md § User settings ({org_url}); docs/org.md §
 * User settings: the live sidebar after membership and project changes, `meta.can` against the
 * permission table, tenant isolation, the dashboard and the query count.
 */
describe('user settings: sidebar', () => {
  let ctx: OrgTestContext;

  beforeAll(async () => {
    ctx = await OrgTestContext.start();
  });
  afterAll(() => ctx.close());

  const { get, patch, P, stored, sidebarOrg, projectIds, pinIds } = userSettingsHelpers(() => ctx);

  describe('the sidebar follows changes at once', () => {
    let owner: TestUser;
    let member: TestUser;
    let orgId: string;
    let shared: number;

    beforeAll(async () => {
      owner = await ctx.newUser('side-owner');
      member = await ctx.newUser('side-member');
      orgId = await ctx.newOrganization(owner, 'Sidebar Org');
      await ctx.addMember(orgId, owner, member, 'MEMBER');
      shared = Number(await ctx.newProject(orgId, owner, 'Shared'));
      await ctx.addProjectMember(orgId, String(shared), owner, member, 'MEMBER');
    });

    it('shows the organization with the role, meta.can and only accessible projects, by name', async () => {
      const ownerView = sidebarOrg((await get(owner)).body, orgId);
      const defaultProject = Number(await ctx.defaultProject(orgId));
      expect(ownerView).toEqual({
        id: Number(orgId),
        name: 'Sidebar Org',
        currentUserRole: 'OWNER',
        meta: { can: { organization: { manageSettings: true }, project: { create: true } } },
        pinned_items: [],
        projects: [
          { id: defaultProject, name: 'Default project', is_default: true },
          { id: shared, name: 'Shared', is_default: false },
        ],
      });
      const memberView = sidebarOrg((await get(member)).body, orgId);
      expect(memberView).toMatchObject({
        currentUserRole: 'MEMBER',
        meta: { can: { organization: { manageSettings: false }, project: { create: false } } },
        projects: [{ id: shared, name: 'Shared', is_default: false }],
      });
    });

    it('shows a new project', async () => {
      const id = Number(await ctx.newProject(orgId, owner, 'Brand new'));
      expect(projectIds(sidebarOrg((await get(owner)).body, orgId))).toContain(id);
      // the MEMBER is not a member of it
      expect(projectIds(sidebarOrg((await get(member)).body, orgId))).not.toContain(id);
    });

    it('follows a role change (role, meta.can, and the projects an ADMIN sees)', async () => {
      const res = await ctx.request('PATCH', `/organizations/${orgId}/members/${member.id}/role`, {
        token: owner.token,
        body: { role: 'ADMIN' },
      });
      expect(res.status).toBe(200);
      const view = sidebarOrg((await get(member)).body, orgId);
      expect(view.currentUserRole).toBe('ADMIN');
      expect(view.meta.can).toEqual({
        organization: { manageSettings: true },
        project: { create: true },
      });
      expect(view.projects).toEqual(sidebarOrg((await get(owner)).body, orgId).projects);
      await ctx.request('PATCH', `/organizations/${orgId}/members/${member.id}/role`, {
        token: owner.token,
        body: { role: 'MEMBER' },
      });
      expect(projectIds(sidebarOrg((await get(member)).body, orgId))).toEqual([shared]);
    });

    it('drops a project whose access is denied, from projects, pins and current_project_id', async () => {
      await patch(member, {
        setting_key: 'sidebar',
        organization_id: Number(orgId),
        pinned_project_ids: [shared],
      });
      await patch(member, { current_project_id: shared, current_organization_id: Number(orgId) });
      const denied = await ctx.request('POST', `${P(orgId)}/${shared}/deny_access/${member.id}`, {
        token: owner.token,
      });
      expect(denied.status).toBeLessThan(300);
      const body = (await get(member)).body;
      const view = sidebarOrg(body, orgId);
      expect(view.projects).toEqual([]);
      expect(view.pinned_items).toEqual([]);
      expect(body.current_project_id).toBeNull();
      expect(body.current_organization_id).toBe(Number(orgId));
      // a denied project cannot be pinned or made current either
      const pin = await patch(member, {
        setting_key: 'sidebar',
        organization_id: Number(orgId),
        pinned_project_ids: [shared],
      });
      expect(pin.body.errors[0].code).toBe('PROJECT_NOT_ACCESSIBLE');
      // restored access brings the pin back (it was filtered, not deleted)
      await ctx.request('POST', `${P(orgId)}/${shared}/restore_access/${member.id}`, {
        token: owner.token,
      });
      expect(pinIds(sidebarOrg((await get(member)).body, orgId))).toEqual([shared]);
    });

    it('removes a deleted project from projects, pins (rows deleted) and current_project_id', async () => {
      const doomed = Number(await ctx.newProject(orgId, owner, 'Doomed'));
      const keep = Number(await ctx.defaultProject(orgId));
      await patch(owner, {
        setting_key: 'sidebar',
        organization_id: Number(orgId),
        pinned_project_ids: [doomed, keep],
      });
      await patch(owner, { current_project_id: doomed }, '?client=ios');
      const res = await ctx.request('DELETE', `${P(orgId)}/${doomed}`, { token: owner.token });
      expect(res.status).toBe(204);
      const body = (await get(owner)).body;
      const view = sidebarOrg(body, orgId);
      expect(projectIds(view)).not.toContain(doomed);
      expect(view.pinned_items).toEqual([
        { type: 'project', id: keep, name: 'Default project', position: 0 },
      ]);
      expect((await get(owner, '?client=ios')).body.current_project_id).toBeNull();
      const rows = await ctx.db.query(
        'SELECT count(*)::int AS n FROM pinned_project WHERE project_id = $1',
        [doomed],
      );
      expect(rows[0].n).toBe(0);
      const settings = await ctx.db.query(
        "SELECT current_project_id FROM user_settings WHERE user_id = $1 AND client = 'ios'",
        [owner.id],
      );
      expect(settings[0].current_project_id).toBeNull();
    });

    it('drops the organization, its pins (rows deleted) and current ids when the membership is removed', async () => {
      await patch(member, { current_organization_id: Number(orgId), current_project_id: shared });
      expect((await stored(member)).pins).toHaveLength(1);
      const res = await ctx.request('DELETE', `/organizations/${orgId}/remove_user/${member.id}`, {
        token: owner.token,
      });
      expect(res.status).toBe(204);
      const body = (await get(member)).body;
      expect(sidebarOrg(body, orgId)).toBeUndefined();
      expect(body.current_organization_id).toBeNull();
      expect(body.current_project_id).toBeNull();
      expect((await stored(member)).pins).toEqual([]);
      const refused = await patch(member, { current_organization_id: Number(orgId) });
      expect(refused.status).toBe(422);
    });
  });

  describe('meta.can and currentUserRole for every role', () => {
    it('match the permission table for OWNER, ADMIN, MEMBER, VIEWER and a project-only member', async () => {
      const owner = await ctx.newUser('can-owner');
      const orgId = await ctx.newOrganization(owner, 'Roles Org');
      const projectId = await ctx.defaultProject(orgId);
      const cases: [Role | null, TestUser][] = [[null, await ctx.newUser('can-project-only')]];
      await ctx.addProjectMember(orgId, projectId, owner, cases[0][1], 'VIEWER');
      for (const role of ['ADMIN', 'MEMBER', 'VIEWER'] as Role[]) {
        const user = await ctx.newUser(`can-${role.toLowerCase()}`);
        await ctx.addMember(orgId, owner, user, role);
        cases.push([role, user]);
      }
      cases.push(['OWNER', owner]);
      for (const [role, user] of cases) {
        const view = sidebarOrg((await get(user)).body, orgId);
        expect(view.currentUserRole).toBe(role);
        expect(view.meta).toEqual({
          can: {
            organization: { manageSettings: organizationCan(role, 'organization.manageSettings') },
            project: { create: organizationCan(role, 'project.create') },
          },
        });
        const expected = role === 'OWNER' || role === 'ADMIN';
        expect(view.meta.can.organization.manageSettings).toBe(expected);
        expect(view.meta.can.project.create).toBe(expected);
        // the sidebar says what the server allows: creating a project
        const create = await ctx.request('POST', P(orgId), {
          token: user.token,
          body: { data: { type: 'project', attributes: { name: `By ${role ?? 'none'}` } } },
        });
        expect(create.status === 201).toBe(view.meta.can.project.create);
      }
      // the project-only member sees just that project
      expect(projectIds(sidebarOrg((await get(cases[0][1])).body, orgId))).toEqual([
        Number(projectId),
      ]);
    });
  });

  describe('tenant isolation', () => {
    it('never shows another tenant in the sidebar, dashboard or pins', async () => {
      const a = await ctx.newUser('tenant-a');
      const b = await ctx.newUser('tenant-b');
      const orgA = await ctx.newOrganization(a, 'Tenant A');
      const projectA = Number(await ctx.newProject(orgA, a, 'Secret A'));
      await patch(a, {
        setting_key: 'sidebar',
        organization_id: Number(orgA),
        pinned_project_ids: [projectA],
      });
      const orgB = await ctx.newOrganization(b, 'Tenant B');
      const body = (await get(b, '?includes=dashboard')).body;
      expect(body.sidebar.organizations.map((o: any) => o.id)).toEqual([Number(orgB)]);
      expect(JSON.stringify(body)).not.toContain('Secret A');
      expect(body.dashboard.recent_projects.map((p: any) => p.organization_id)).toEqual([
        Number(orgB),
      ]);
      // B's writes cannot reach A's organization or project; A's settings stay as they were
      const before = await stored(a);
      const pin = await patch(b, {
        setting_key: 'sidebar',
        organization_id: Number(orgA),
        pinned_project_ids: [projectA],
      });
      expect(pin.status).toBe(422);
      const current = await patch(b, { current_project_id: projectA });
      expect(current.status).toBe(422);
      expect(await stored(a)).toEqual(before);
      expect((await stored(b)).pins).toEqual([]);
    });
  });

  describe('dashboard', () => {
    it('is present only with includes=dashboard: counts, pending invitations and 5 recent projects', async () => {
      const inviter = await ctx.newUser('inviter');
      const inviterOrg = await ctx.newOrganization(inviter, 'Inviting Org');
      const email = ctx.unknownEmail('dash');
      const invited = await ctx.request('POST', `/organizations/${inviterOrg}/invitations`, {
        token: inviter.token,
        body: { data: { type: 'membershipInvitation', attributes: { email, orgRole: 'member' } } },
      });
      expect(invited.status).toBe(201);
      const reg = await ctx.auth.inject({
        method: 'POST',
        url: '/v1/api/users',
        headers: { 'api-key': ctx.env.keys.apiKey },
        payload: { username: email, password: 'a long test password' },
      });
      const user: TestUser = {
        id: reg.json().data.id,
        email,
        token: reg.json().data.attributes.accessToken,
      };
      const org1 = await ctx.newOrganization(user, 'Dash 1');
      const org2 = await ctx.newOrganization(user, 'Dash 2');
      const ids: number[] = [
        Number(await ctx.defaultProject(org1)),
        Number(await ctx.defaultProject(org2)),
      ];
      for (let i = 0; i < 5; i++)
        ids.push(Number(await ctx.newProject(i % 2 ? org1 : org2, user, `P${i}`)));
      // activity times: project ids[i] active i hours ago
      for (const [i, id] of ids.entries()) {
        await ctx.db.query(
          `UPDATE project SET last_activity_at = now() - make_interval(hours => $2) WHERE id = $1`,
          [id, i],
        );
      }
      expect((await get(user)).body.dashboard).toBeUndefined();
      const res = await get(user, '?includes=dashboard');
      expect(res.status).toBe(200);
      const { dashboard } = res.body;
      expect(dashboard).toMatchObject({
        organizations_count: 2,
        projects_count: 7,
        pending_invitations_count: 1,
      });
      expect(dashboard.recent_projects.map((p: any) => p.id)).toEqual(ids.slice(0, 5));
      expect(dashboard.recent_projects[0]).toEqual({
        id: ids[0],
        name: 'Default project',
        organization_id: Number(org1),
        last_activity_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
      // accepting the invitation: one more organization, no pending invitation
      await ctx.request('POST', `/me/accept_invitation/${invited.body.data.id}`, {
        token: user.token,
      });
      const after = (await get(user, '?includes=dashboard')).body.dashboard;
      expect(after).toMatchObject({ organizations_count: 3, pending_invitations_count: 0 });
    });
  });

  describe('cost', () => {
    it('sends the same number of queries for 1 organization as for 10 × 6 projects (no N+1)', async () => {
      const busy = await ctx.newUser('busy');
      const first = await ctx.newOrganization(busy, 'Busy 1');
      await patch(busy, {
        setting_key: 'sidebar',
        organization_id: Number(first),
        pinned_project_ids: [Number(await ctx.defaultProject(first))],
      });
      const once = await countQueries(ctx, () => get(busy));
      for (let i = 2; i <= 10; i++) {
        const org = await ctx.newOrganization(busy, `Busy ${i}`);
        for (let j = 0; j < 5; j++) await ctx.newProject(org, busy, `Project ${j}`);
      }
      const many = await countQueries(ctx, async () => {
        const res = await get(busy);
        expect(res.body.sidebar.organizations).toHaveLength(10);
        return res;
      });
      expect(once).toBe(4); // settings, pins, organizations, projects
      expect(many).toBe(once);
    });
  });
});
