import { organizationCan, type Role } from '@wp/contracts';
import { OrgTestContext, type TestUser } from '../support/org-test-app.js';

/**
 * docs/api.md § User settings object and docs/api.md § User settings ({org_url}); docs/org.md §
 * User settings: defaults, per-client fields, shared pins, onboarding, the live sidebar after
 * membership and project changes, `meta.can` against the permission table, validation (400,
 * nothing written), foreign organizations and projects (422, alike for unknown ones), tenant
 * isolation, the dashboard and the query count.
 */
describe('user settings', () => {
  let ctx: OrgTestContext;

  beforeAll(async () => {
    ctx = await OrgTestContext.start();
  });
  afterAll(() => ctx.close());

  const get = (user: TestUser, query = '') =>
    ctx.request('GET', `/user_settings${query}`, { token: user.token });
  const patch = (user: TestUser, body: unknown, query = '') =>
    ctx.request('PATCH', `/user_settings${query}`, { token: user.token, body });
  const onboarding = (user: TestUser, step: string, body?: unknown, query = '') =>
    ctx.request('PATCH', `/user_settings/onboarding/${step}${query}`, {
      token: user.token,
      ...(body !== undefined ? { body } : {}),
    });
  const P = (org: string) => `/organizations/${org}/projects`;
  /** Everything stored for a user: settings rows of every client and pins. */
  const stored = async (user: TestUser) => ({
    settings: await ctx.db.query(
      `SELECT client, theme, language, sidebar_open, current_organization_id,
              current_project_id, onboarding
       FROM user_settings WHERE user_id = $1 ORDER BY client`,
      [user.id],
    ),
    pins: await ctx.db.query(
      `SELECT organization_id, project_id, position FROM pinned_project
       WHERE user_id = $1 ORDER BY organization_id, position`,
      [user.id],
    ),
  });
  const sidebarOrg = (body: any, orgId: string) =>
    body.sidebar.organizations.find((o: any) => o.id === Number(orgId));
  const projectIds = (org: any) => org.projects.map((p: any) => p.id);
  const pinIds = (org: any) => org.pinned_items.map((p: any) => p.id);

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

  describe('validation: 400 and nothing written', () => {
    let user: TestUser;
    let orgId: string;

    beforeAll(async () => {
      user = await ctx.newUser('validation');
      orgId = await ctx.newOrganization(user, 'Validation Org');
      await patch(user, { theme: 'dark' });
      await onboarding(user, 'sentinel_pass_discovered');
    });

    const badSettings: [string, unknown, string[]][] = [
      ['an unknown key', { theme: 'dark', colour: 'red' }, ['/colour']],
      ['an unknown key only', { favourite: 1 }, ['/favourite']],
      ['an empty body', {}, ['']],
      ['a theme outside light/dark', { theme: 'blue' }, ['/theme']],
      ['a theme of the wrong type', { theme: 1 }, ['/theme']],
      ['language with an underscore', { language: 'en_US' }, ['/language']],
      ['an empty language', { language: '' }, ['/language']],
      ['a language that is not a string', { language: 12 }, ['/language']],
      ['a too long language', { language: 'en-' + 'a'.repeat(40) }, ['/language']],
      ['sidebar_open as a string', { sidebar_open: 'true' }, ['/sidebar_open']],
      ['a numeric string id', { current_organization_id: '5' }, ['/current_organization_id']],
      ['an empty string id', { current_project_id: '' }, ['/current_project_id']],
      ['a fractional id', { current_project_id: 1.5 }, ['/current_project_id']],
      ['a zero id', { current_organization_id: 0 }, ['/current_organization_id']],
      ['an id above int4', { current_organization_id: 2 ** 31 }, ['/current_organization_id']],
      [
        'several problems at once',
        { theme: 'x', sidebar_open: 1, extra: true },
        ['/extra', '/theme', '/sidebar_open'],
      ],
      ['a JSON array body', [1, 2], ['']],
      [
        'setting fields mixed into the pinned-projects form',
        { setting_key: 'sidebar', organization_id: 1, pinned_project_ids: [], theme: 'dark' },
        ['/theme'],
      ],
      [
        'another setting_key',
        { setting_key: 'theme', organization_id: 1, pinned_project_ids: [] },
        ['/setting_key'],
      ],
      [
        'a pinned form without organization_id',
        { setting_key: 'sidebar', pinned_project_ids: [] },
        ['/organization_id'],
      ],
      [
        'organization_id as a string',
        { setting_key: 'sidebar', organization_id: '1', pinned_project_ids: [] },
        ['/organization_id'],
      ],
      [
        'pinned_project_ids missing',
        { setting_key: 'sidebar', organization_id: 1 },
        ['/pinned_project_ids'],
      ],
      [
        'pinned_project_ids not an array',
        { setting_key: 'sidebar', organization_id: 1, pinned_project_ids: 3 },
        ['/pinned_project_ids'],
      ],
      [
        'a non-integer project id',
        { setting_key: 'sidebar', organization_id: 1, pinned_project_ids: [1, '2'] },
        ['/pinned_project_ids/1'],
      ],
      [
        'duplicate project ids',
        { setting_key: 'sidebar', organization_id: 1, pinned_project_ids: [4, 5, 4] },
        ['/pinned_project_ids/2'],
      ],
      [
        'more than 100 pins',
        {
          setting_key: 'sidebar',
          organization_id: 1,
          pinned_project_ids: Array.from({ length: 101 }, (_, i) => i + 1),
        },
        ['/pinned_project_ids'],
      ],
    ];

    it.each(badSettings)('PATCH /user_settings refuses %s', async (_, body, pointers) => {
      const before = await stored(user);
      const res = await patch(user, body);
      expect(res.status).toBe(400);
      expect(res.body.errors.every((e: any) => e.code === 'VALIDATION_FAILED')).toBe(true);
      expect(res.body.errors.map((e: any) => e.source.pointer)).toEqual(pointers);
      expect(await stored(user)).toEqual(before);
    });

    it.each([
      ['an upper-case client', '?client=Web'],
      ['a client with a space', '?client=my%20app'],
      ['a too long client', `?client=${'a'.repeat(33)}`],
      ['an empty client', '?client='],
    ])('refuses %s on every endpoint (400 naming client)', async (_, query) => {
      const before = await stored(user);
      for (const res of [
        await get(user, query),
        await patch(user, { theme: 'light' }, query),
        await onboarding(user, 'is_hidden', { value: true }, query),
      ]) {
        expect(res.status).toBe(400);
        expect(res.body.errors[0].source).toEqual({ parameter: 'client' });
      }
      expect(await stored(user)).toEqual(before);
    });

    it('refuses includes other than dashboard (400)', async () => {
      const res = await get(user, '?includes=dashboard,wallets');
      expect(res.status).toBe(400);
      expect(res.body.errors[0].source).toEqual({ parameter: 'includes' });
    });

    it.each([
      ['an upper-case step id', 'Is_Hidden', { value: true }, 'stepId'],
      ['a step id with a dash', 'is-hidden', { value: true }, 'stepId'],
      ['a 65-character step id', 'a'.repeat(65), { value: true }, 'stepId'],
      ['an unknown body key', 'is_hidden', { value: true, other: 1 }, '/other'],
      ['a value above 4 KiB', 'is_hidden', { value: 'x'.repeat(4095) }, '/value'],
    ])('PATCH onboarding refuses %s', async (_, step, body, where) => {
      const before = await stored(user);
      const res = await onboarding(user, step, body);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].code).toBe('VALIDATION_FAILED');
      const source = res.body.errors[0].source;
      expect(where.startsWith('/') ? source.pointer : source.parameter).toBe(where);
      expect(await stored(user)).toEqual(before);
    });

    it('refuses pins of an organization or projects the user cannot access (422), nothing written', async () => {
      const stranger = await ctx.newUser('stranger');
      const foreignOrg = await ctx.newOrganization(stranger, 'Foreign');
      const foreignProject = Number(await ctx.defaultProject(foreignOrg));
      const ownProject = Number(await ctx.defaultProject(orgId));
      const before = await stored(user);
      const foreign = await patch(user, {
        setting_key: 'sidebar',
        organization_id: Number(foreignOrg),
        pinned_project_ids: [foreignProject],
      });
      const unknown = await patch(user, {
        setting_key: 'sidebar',
        organization_id: 2_000_000_000,
        pinned_project_ids: [],
      });
      expect(foreign.status).toBe(422);
      expect(foreign.body).toEqual(unknown.body);
      expect(foreign.body.errors[0]).toMatchObject({
        code: 'ORGANIZATION_NOT_ACCESSIBLE',
        source: { pointer: '/organization_id' },
      });
      // a project of another organization, inside the user's own organization's pin list
      const mixed = await patch(user, {
        setting_key: 'sidebar',
        organization_id: Number(orgId),
        pinned_project_ids: [ownProject, foreignProject],
      });
      expect(mixed.status).toBe(422);
      expect(mixed.body.errors[0]).toMatchObject({
        code: 'PROJECT_NOT_ACCESSIBLE',
        source: { pointer: '/pinned_project_ids/1' },
      });
      const missing = await patch(user, {
        setting_key: 'sidebar',
        organization_id: Number(orgId),
        pinned_project_ids: [2_000_000_000],
      });
      expect(missing.body.errors[0].code).toBe('PROJECT_NOT_ACCESSIBLE');
      expect(missing.body.errors[0].detail).toBe(mixed.body.errors[0].detail);
      expect(await stored(user)).toEqual(before);
    });

    it('refuses a current organization or project of another tenant (422), alike for unknown ids, nothing written', async () => {
      const stranger = await ctx.newUser('stranger');
      const foreignOrg = await ctx.newOrganization(stranger, 'Foreign 2');
      const foreignProject = Number(await ctx.defaultProject(foreignOrg));
      const before = await stored(user);
      const org = await patch(user, {
        theme: 'light',
        current_organization_id: Number(foreignOrg),
      });
      const unknownOrg = await patch(user, {
        theme: 'light',
        current_organization_id: 2_000_000_000,
      });
      expect(org.status).toBe(422);
      expect(org.body).toEqual(unknownOrg.body);
      expect(org.body.errors[0].code).toBe('ORGANIZATION_NOT_ACCESSIBLE');
      const project = await patch(user, { current_project_id: foreignProject });
      const unknownProject = await patch(user, { current_project_id: 2_000_000_000 });
      expect(project.status).toBe(422);
      expect(project.body).toEqual(unknownProject.body);
      expect(project.body.errors[0]).toMatchObject({
        code: 'PROJECT_NOT_ACCESSIBLE',
        source: { pointer: '/current_project_id' },
      });
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

/**
 * Counts the SQL statements the org service sends while `action` runs, leaving out the outbox
 * relay's polling and transaction control (as in organizations.e2e-spec.ts).
 */
async function countQueries(ctx: OrgTestContext, action: () => Promise<unknown>): Promise<number> {
  const runner = ctx.db.createQueryRunner();
  const proto = Object.getPrototypeOf(runner) as { query: (...args: any[]) => unknown };
  await runner.release();
  const original = proto.query;
  const seen: string[] = [];
  proto.query = function (this: unknown, sql: string, ...rest: unknown[]) {
    seen.push(sql);
    return original.call(this, sql, ...rest);
  };
  try {
    await action();
  } finally {
    proto.query = original;
  }
  return seen.filter(
    (sql) =>
      /^\s*SELECT/i.test(sql) &&
      sql.trim() !== 'SELECT 1' &&
      !/outbox_message|processed_event/i.test(sql),
  ).length;
}
