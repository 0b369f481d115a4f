import { OrgTestContext, type TestUser } from '../support/org-test-app.js';
import { userSettingsHelpers } from '../support/user-settings.js';

/**
 * docs/api.md § User settings object and docs/api.md § User settings ({org_url}); docs/org.md §
 * User settings: validation: 400 and nothing written; foreign organizations and projects (422,
 * alike for unknown ones).
 */
describe('user settings: validation', () => {
  let ctx: OrgTestContext;

  beforeAll(async () => {
    ctx = await OrgTestContext.start();
  });
  afterAll(() => ctx.close());

  const { get, patch, onboarding, stored } = userSettingsHelpers(() => ctx);

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
});
