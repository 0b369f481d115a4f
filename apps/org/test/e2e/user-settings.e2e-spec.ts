import { OrgTestContext, type TestUser } from '../support/org-test-app.js';
import { userSettingsHelpers } from '../support/user-settings.js';

/**
 * docs/api.md § User settings object and docs/api.md § User settings ({org_url}); docs/org.md §
 * User settings: defaults and per-client fields, shared pins and onboarding.
 */
describe('user settings', () => {
  let ctx: OrgTestContext;

  beforeAll(async () => {
    ctx = await OrgTestContext.start();
  });
  afterAll(() => ctx.close());

  const { get, patch, onboarding, stored, sidebarOrg, pinIds } = userSettingsHelpers(() => ctx);

  describe('defaults and per-client fields', () => {
    let user: TestUser;

    beforeAll(async () => {
      user = await ctx.newUser('settings');
    });

    it('answers the defaults for a user who never wrote settings, without writing anything', async () => {
      const res = await get(user);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        client: 'web',
        sidebar: { organizations: [] },
        current_organization_id: null,
        current_project_id: null,
        language: 'en',
        theme: 'light',
        sidebar_open: true,
        onboarding: {},
      });
      expect(await stored(user)).toEqual({ settings: [], pins: [] });
    });

    it('requires an access token (401)', async () => {
      const res = await ctx.request('GET', '/user_settings');
      expect(res.status).toBe(401);
      const write = await ctx.request('PATCH', '/user_settings', { body: { theme: 'dark' } });
      expect(write.status).toBe(401);
    });

    it('stores theme, language (canonical BCP 47), sidebar_open and current ids, answering 200 with the new object', async () => {
      const orgId = await ctx.newOrganization(user, 'Settings Org');
      const projectId = await ctx.defaultProject(orgId);
      const res = await patch(user, {
        theme: 'dark',
        language: 'pt-br',
        sidebar_open: false,
        current_organization_id: Number(orgId),
        current_project_id: Number(projectId),
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        client: 'web',
        theme: 'dark',
        language: 'pt-BR',
        sidebar_open: false,
        current_organization_id: Number(orgId),
        current_project_id: Number(projectId),
      });
      expect(res.body.dashboard).toBeUndefined();
      const again = await get(user);
      expect(again.body).toEqual(res.body);
      // one field at a time leaves the others as they are
      const one = await patch(user, { theme: 'light' });
      expect(one.body).toMatchObject({ theme: 'light', language: 'pt-BR', sidebar_open: false });
      expect(one.body.current_project_id).toBe(Number(projectId));
    });

    it('clears a current id with null', async () => {
      const res = await patch(user, { current_organization_id: null, current_project_id: null });
      expect(res.status).toBe(200);
      expect(res.body.current_organization_id).toBeNull();
      expect(res.body.current_project_id).toBeNull();
      expect((await stored(user)).settings[0]).toMatchObject({
        current_organization_id: null,
        current_project_id: null,
      });
    });

    it('keeps theme, language, sidebar_open, current ids and onboarding per client', async () => {
      const web = (await get(user)).body;
      const ios = await get(user, '?client=ios');
      expect(ios.status).toBe(200);
      expect(ios.body).toMatchObject({
        client: 'ios',
        theme: 'light',
        language: 'en',
        sidebar_open: true,
        current_organization_id: null,
        onboarding: {},
      });
      const orgId = String(web.sidebar.organizations[0].id);
      const changed = await patch(
        user,
        { theme: 'dark', language: 'fr', current_organization_id: Number(orgId) },
        '?client=ios',
      );
      expect(changed.body).toMatchObject({ client: 'ios', theme: 'dark', language: 'fr' });
      await onboarding(user, 'is_hidden', { value: false }, '?client=ios');
      const webAfter = (await get(user)).body;
      expect(webAfter).toEqual(web);
      expect((await get(user, '?client=ios')).body).toMatchObject({
        theme: 'dark',
        language: 'fr',
        current_organization_id: Number(orgId),
        onboarding: { is_hidden: false },
      });
      // the sidebar is the same for every client
      expect((await get(user, '?client=ios')).body.sidebar).toEqual(webAfter.sidebar);
      expect((await stored(user)).settings.map((r: any) => r.client)).toEqual(['ios', 'web']);
    });

    it('accepts a UUID string as an id form but refuses it (no organization or project has one)', async () => {
      const before = await stored(user);
      const uuid = 'A0B1C2D3-E4F5-4A6B-8C7D-9E0F1A2B3C4D';
      const org = await patch(user, { current_organization_id: uuid });
      expect(org.status).toBe(422);
      expect(org.body.errors[0]).toMatchObject({
        code: 'ORGANIZATION_NOT_ACCESSIBLE',
        source: { pointer: '/current_organization_id' },
      });
      const project = await patch(user, { current_project_id: uuid.toLowerCase() });
      expect(project.status).toBe(422);
      expect(project.body.errors[0].code).toBe('PROJECT_NOT_ACCESSIBLE');
      expect(await stored(user)).toEqual(before);
    });
  });

  describe('pinned projects', () => {
    let owner: TestUser;
    let orgId: string;
    let other: string;
    let p1: number;
    let p2: number;
    let p3: number;
    let otherProject: number;

    beforeAll(async () => {
      owner = await ctx.newUser('pinner');
      orgId = await ctx.newOrganization(owner, 'Pins Org');
      p1 = Number(await ctx.defaultProject(orgId));
      p2 = Number(await ctx.newProject(orgId, owner, 'Beta'));
      p3 = Number(await ctx.newProject(orgId, owner, 'Gamma'));
      other = await ctx.newOrganization(owner, 'Other Org');
      otherProject = Number(await ctx.defaultProject(other));
    });

    const pin = (ids: number[], org = orgId, query = '') =>
      patch(
        owner,
        { setting_key: 'sidebar', organization_id: Number(org), pinned_project_ids: ids },
        query,
      );

    it('stores the array order as positions 0..n-1 and answers 200 with the sidebar', async () => {
      const res = await pin([p3, p1]);
      expect(res.status).toBe(200);
      expect(sidebarOrg(res.body, orgId).pinned_items).toEqual([
        { type: 'project', id: p3, name: 'Gamma', position: 0 },
        { type: 'project', id: p1, name: 'Default project', position: 1 },
      ]);
      expect((await stored(owner)).pins).toEqual([
        { organization_id: Number(orgId), project_id: p3, position: 0 },
        { organization_id: Number(orgId), project_id: p1, position: 1 },
      ]);
    });

    it('shares pins across clients and keeps them per organization', async () => {
      await pin([otherProject], other, '?client=desktop');
      for (const query of ['', '?client=ios', '?client=desktop']) {
        const body = (await get(owner, query)).body;
        expect(pinIds(sidebarOrg(body, orgId))).toEqual([p3, p1]);
        expect(pinIds(sidebarOrg(body, other))).toEqual([otherProject]);
      }
    });

    it('replaces the previous list of that organization only; an empty list unpins all', async () => {
      const res = await pin([p2]);
      expect(sidebarOrg(res.body, orgId).pinned_items).toEqual([
        { type: 'project', id: p2, name: 'Beta', position: 0 },
      ]);
      expect(pinIds(sidebarOrg(res.body, other))).toEqual([otherProject]);
      const empty = await pin([], other);
      expect(sidebarOrg(empty.body, other).pinned_items).toEqual([]);
      expect((await stored(owner)).pins).toHaveLength(1);
    });

    it('serializes concurrent replacements: the result is one of the lists, never a mix', async () => {
      await Promise.all([pin([p1, p2, p3]), pin([p3, p2]), pin([p2, p1])]);
      const pins = (await stored(owner)).pins.map((r: any) => r.project_id);
      expect([
        [p1, p2, p3],
        [p3, p2],
        [p2, p1],
      ]).toContainEqual(pins);
    });
  });

  describe('onboarding', () => {
    let user: TestUser;

    beforeAll(async () => {
      user = await ctx.newUser('onboarding');
    });

    it('stores true by default, any JSON value otherwise, per client, and returns it in GET', async () => {
      const first = await onboarding(user, 'sentinel_pass_discovered');
      expect(first.status).toBe(200);
      expect(first.body.onboarding).toEqual({ sentinel_pass_discovered: true });
      const empty = await onboarding(user, 'is_hidden', {});
      expect(empty.body.onboarding).toEqual({ sentinel_pass_discovered: true, is_hidden: true });
      const value = { step: 3, seen: ['a', 'b'], at: null };
      await onboarding(user, 'tour_v2', { value });
      await onboarding(user, 'is_hidden', { value: false });
      await onboarding(user, 'nothing', { value: null });
      expect((await get(user)).body.onboarding).toEqual({
        sentinel_pass_discovered: true,
        is_hidden: false,
        tour_v2: value,
        nothing: null,
      });
      expect((await get(user, '?client=android')).body.onboarding).toEqual({});
      await onboarding(user, 'is_hidden', { value: 'yes' }, '?client=android');
      expect((await get(user, '?client=android')).body.onboarding).toEqual({ is_hidden: 'yes' });
      expect((await get(user)).body.onboarding.is_hidden).toBe(false);
    });

    it('accepts a value of exactly 4 KiB as JSON', async () => {
      const res = await onboarding(user, 'big', { value: 'x'.repeat(4094) });
      expect(res.status).toBe(200);
      expect(res.body.onboarding.big).toHaveLength(4094);
    });

    it('keeps at most 100 steps per client (422 for a new one beyond), still updating existing ones', async () => {
      const many = await ctx.newUser('many-steps');
      const steps = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`step_${i}`, true]));
      await ctx.db.query(
        `INSERT INTO user_settings (user_id, client, onboarding) VALUES ($1, 'web', $2)`,
        [many.id, JSON.stringify(steps)],
      );
      const refused = await onboarding(many, 'one_more');
      expect(refused.status).toBe(422);
      expect(refused.body.errors[0].code).toBe('TOO_MANY_ONBOARDING_STEPS');
      const existing = await onboarding(many, 'step_5', { value: 'again' });
      expect(existing.status).toBe(200);
      expect(Object.keys(existing.body.onboarding)).toHaveLength(100);
      expect(existing.body.onboarding.step_5).toBe('again');
    });
  });
});
