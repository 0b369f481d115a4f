import { effectiveProjectRole, ROLES, type Role } from '@wp/contracts';
import { publishEvent } from '@wp/event-testing';
import { waitFor } from '@wp/testing';
import { effectiveRoleSql } from '../../src/modules/tenants/project-list.js';
import { OrgTestContext, type TestUser } from '../support/org-test-app.js';
import {
  type CallerRole,
  type Model,
  NAMES,
  CALLER_ROLES,
  DAY,
  BASE,
  cmp,
} from '../support/project-list-model.js';

/**
 * `GET /organizations/{id}/projects` (docs/api.md § Projects): every filter and sort, checked
 * against an independent computation over a seeded model of 33 projects with varied members,
 * roles (denied included), wallets, tools, notebooks and dates. The model is what the test
 * wrote, never what the server answers.
 */

describe('project list: filters and sorting', () => {
  let ctx: OrgTestContext;
  let owner: TestUser;
  let caller: TestUser;
  let admin: TestUser;
  let helpers: TestUser[];
  let orgId: string;
  const model: Model[] = [];

  beforeAll(async () => {
    ctx = await OrgTestContext.start();
    owner = await ctx.newUser('owner');
    caller = await ctx.newUser('caller');
    admin = await ctx.newUser('admin');
    helpers = [];
    for (let i = 0; i < 3; i++) helpers.push(await ctx.newUser(`helper${i}`));
    orgId = await ctx.newOrganization(owner, 'Listing');
    await ctx.addMember(orgId, owner, caller, 'MEMBER');
    await ctx.addMember(orgId, owner, admin, 'ADMIN');

    const defaultId = Number(await ctx.defaultProject(orgId));
    model.push(seedModel(defaultId, 'Default project', null, 0, -1));
    for (let i = 0; i < NAMES.length; i++) {
      const id = Number(await ctx.newProject(orgId, owner, NAMES[i]));
      const callerRole = CALLER_ROLES[i % CALLER_ROLES.length];
      const extra = i % 4;
      model.push(seedModel(id, NAMES[i], callerRole, extra, i));
      const P = `/organizations/${orgId}/projects/${id}`;
      if (callerRole !== null) {
        const role = callerRole === 'DENIED' ? 'MEMBER' : callerRole;
        await ctx.addProjectMember(orgId, String(id), owner, caller, role);
        if (callerRole === 'DENIED') {
          const denied = await ctx.request('POST', `${P}/deny_access/${caller.id}`, {
            token: owner.token,
          });
          expect(denied.status).toBe(200);
        }
      }
      for (let h = 0; h < extra; h++) {
        await ctx.addProjectMember(orgId, String(id), owner, helpers[h], 'VIEWER');
      }
    }

    // wallets arrive as events from the wallet service
    for (const m of model.filter((p) => p.wallet)) {
      await publishEvent(ctx.org, 'wallet.wallet.created', {
        addressHash: `0x${'b'.repeat(40)}`,
        entityType: 'project',
        entityId: String(m.id),
        purpose: 'project_funds',
        currency: 'CREDITS',
      });
    }
    const wallets = model.filter((p) => p.wallet).length;
    await waitFor(
      async () =>
        (await ctx.db.query('SELECT count(*)::int AS n FROM project WHERE has_wallet'))[0].n ===
        wallets,
      { what: 'has_wallet from wallet.wallet.created' },
    );

    // Sentinel Pass and notebook counters have no producer yet (the Sentinel Pass feature and
    // later): set them, and fix the dates the list sorts on, directly.
    for (const m of model) {
      await ctx.db.query(
        `UPDATE project SET tools_count = $2, notebooks_count = $3, created_at = $4,
           updated_at = $5, last_activity_at = $6 WHERE id = $1`,
        [m.id, m.tools, m.notebooks, m.createdAt, m.updatedAt, m.lastActivityAt],
      );
    }
  }, 120_000);
  afterAll(() => ctx.close());

  /** Deterministic, varied attributes for the i-th seeded project (i = -1: the default one). */
  function seedModel(
    id: number,
    name: string,
    callerRole: CallerRole,
    extra: number,
    i: number,
  ): Model {
    const k = i + 1;
    const callerCounts = callerRole !== null && callerRole !== 'DENIED' ? 1 : 0;
    return {
      id,
      name,
      callerRole,
      members: 1 + extra + callerCounts, // the creator (OWNER) + helpers + caller with access
      tools: k % 3 === 0 ? k : 0,
      notebooks: k % 5 === 0 ? 2 : 0,
      wallet: k % 4 === 1,
      createdAt: new Date(BASE + ((k * 7) % 33) * DAY + (k % 2) * 1000),
      updatedAt: new Date(BASE + ((k * 11) % 33) * DAY),
      lastActivityAt: new Date(BASE + 40 * DAY + ((k * 13) % 33) * 3600_000),
    };
  }

  /** The caller's effective role in a seeded project (the caller is an organization MEMBER). */
  const roleOf = (m: Model, as: 'caller' | 'admin'): Role | null =>
    as === 'admin'
      ? 'ADMIN'
      : effectiveProjectRole({
          organizationRole: 'MEMBER',
          projectRole: m.callerRole === 'DENIED' ? 'MEMBER' : m.callerRole,
          accessDenied: m.callerRole === 'DENIED',
        });

  const SORTS: Record<string, (a: Model, b: Model) => number> = {
    name: (a, b) => cmp(a.name.toLowerCase(), b.name.toLowerCase()),
    created_at: (a, b) => a.createdAt.getTime() - b.createdAt.getTime(),
    updated_at: (a, b) => a.updatedAt.getTime() - b.updatedAt.getTime(),
    members_count: (a, b) => a.members - b.members,
    tools_count: (a, b) => a.tools - b.tools,
    notebooks_count: (a, b) => a.notebooks - b.notebooks,
    recent_activity: (a, b) => b.lastActivityAt.getTime() - a.lastActivityAt.getTime(),
  };
  SORTS['alphabetical'] = SORTS['name'];

  function expected(
    as: 'caller' | 'admin',
    keep: (m: Model, role: Role) => boolean,
    sort = 'name',
  ): string[] {
    const descending = sort.startsWith('-');
    const primary = SORTS[sort.replace(/^-/, '')];
    return model
      .map((m) => ({ m, role: roleOf(m, as) }))
      .filter((x): x is { m: Model; role: Role } => x.role !== null && keep(x.m, x.role))
      .map((x) => x.m)
      .sort((a, b) => (descending ? -primary(a, b) : primary(a, b)) || a.id - b.id)
      .map((m) => String(m.id));
  }

  async function list(as: 'caller' | 'admin', query: string) {
    const res = await ctx.request('GET', `/organizations/${orgId}/projects${query}`, {
      token: (as === 'caller' ? caller : admin).token,
    });
    expect(res.status).toBe(200);
    return res.body.data as any[];
  }

  const ids = (data: any[]) => data.map((p) => p.id);

  it('seeds more than 30 projects with every kind of standing', () => {
    expect(model.length).toBeGreaterThan(30);
    for (const role of [null, 'DENIED', ...ROLES]) {
      expect(model.some((m) => m.callerRole === role)).toBe(true);
    }
  });

  it('shows only accessible projects, sorted by name by default, with the caller’s role and the counters', async () => {
    const data = await list('caller', '');
    expect(ids(data)).toEqual(expected('caller', () => true));
    for (const p of data) {
      const m = model.find((x) => String(x.id) === p.id)!;
      expect(p.meta.role).toBe(roleOf(m, 'caller'));
      expect(p.attributes).toMatchObject({
        membersCount: m.members,
        toolsCount: m.tools,
        notebooksCount: m.notebooks,
        hasWallet: m.wallet,
        hasTools: m.tools > 0,
        hasNotebooks: m.notebooks > 0,
        createdAt: m.createdAt.toISOString(),
      });
    }
    // hidden: no membership, or access denied
    const hidden = model.filter((m) => m.callerRole === null || m.callerRole === 'DENIED');
    expect(hidden.length).toBeGreaterThan(4);
    for (const m of hidden) expect(ids(data)).not.toContain(String(m.id));
    // an organization ADMIN sees every project
    expect(ids(await list('admin', ''))).toEqual(expected('admin', () => true));
  });

  it.each([
    'name',
    'alphabetical',
    'created_at',
    'updated_at',
    'members_count',
    'tools_count',
    'notebooks_count',
    'recent_activity',
  ])('sorts by %s, in its natural direction and reversed with - (ties by id)', async (key) => {
    expect(ids(await list('admin', `?sort=${key}`))).toEqual(expected('admin', () => true, key));
    expect(ids(await list('admin', `?sort=-${key}`))).toEqual(
      expected('admin', () => true, `-${key}`),
    );
    expect(ids(await list('caller', `?sort=-${key}`))).toEqual(
      expected('caller', () => true, `-${key}`),
    );
  });

  it('filters by user_role (comma list, either case)', async () => {
    for (const q of ['OWNER', 'MEMBER,VIEWER', 'admin', 'owner,ADMIN,member,viewer']) {
      const roles = q.toUpperCase().split(',');
      expect(ids(await list('caller', `?user_role=${q}`))).toEqual(
        expected('caller', (_m, role) => roles.includes(role)),
      );
    }
    expect(ids(await list('admin', '?user_role=OWNER'))).toEqual([]);
  });

  it('filters by has_wallet, has_tools and has_notebooks (true and false)', async () => {
    for (const v of [true, false]) {
      expect(ids(await list('admin', `?has_wallet=${v}`))).toEqual(
        expected('admin', (m) => m.wallet === v),
      );
      expect(ids(await list('admin', `?has_tools=${v}`))).toEqual(
        expected('admin', (m) => m.tools > 0 === v),
      );
      expect(ids(await list('admin', `?has_notebooks=${v}`))).toEqual(
        expected('admin', (m) => m.notebooks > 0 === v),
      );
    }
  });

  it('filters by min_members and max_members (inclusive)', async () => {
    expect(ids(await list('admin', '?min_members=3'))).toEqual(
      expected('admin', (m) => m.members >= 3),
    );
    expect(ids(await list('admin', '?max_members=2'))).toEqual(
      expected('admin', (m) => m.members <= 2),
    );
    expect(ids(await list('caller', '?min_members=2&max_members=3&sort=-members_count'))).toEqual(
      expected('caller', (m) => m.members >= 2 && m.members <= 3, '-members_count'),
    );
  });

  it('searches names case-insensitively, with % and _ matching themselves', async () => {
    for (const term of ['ALPHA', '%', '_', 'a_b', 'mega', 'zzz']) {
      const data = await list('admin', `?search=${encodeURIComponent(term)}`);
      expect(ids(data)).toEqual(
        expected('admin', (m) => m.name.toLowerCase().includes(term.toLowerCase())),
      );
    }
    expect(ids(await list('admin', '?search=%25'))).toHaveLength(2);
  });

  it('filters by created_after and created_before (exclusive), as dates or date-times', async () => {
    const after = new Date(BASE + 10 * DAY);
    const before = new Date(BASE + 20 * DAY);
    const q = `?created_after=${after.toISOString()}&created_before=${before.toISOString()}`;
    expect(ids(await list('admin', q))).toEqual(
      expected('admin', (m) => m.createdAt > after && m.createdAt < before),
    );
    expect(ids(await list('admin', '?created_before=2026-01-05'))).toEqual(
      expected('admin', (m) => m.createdAt < new Date('2026-01-05T00:00:00Z')),
    );
  });

  it('combines filters with a sort', async () => {
    const q =
      '?user_role=MEMBER,VIEWER,OWNER&has_tools=false&min_members=2&search=a&sort=-created_at&forceRefresh=true';
    expect(ids(await list('caller', q))).toEqual(
      expected(
        'caller',
        (m, role) =>
          ['MEMBER', 'VIEWER', 'OWNER'].includes(role) &&
          m.tools === 0 &&
          m.members >= 2 &&
          m.name.toLowerCase().includes('a'),
        '-created_at',
      ),
    );
  });

  it.each([
    ['user_role=KING', 'user_role'],
    ['has_wallet=maybe', 'has_wallet'],
    ['has_tools=2', 'has_tools'],
    ['has_notebooks=', 'has_notebooks'],
    ['min_members=-1', 'min_members'],
    ['max_members=ten', 'max_members'],
    ['min_members=5&max_members=2', 'min_members'],
    ['sort=size', 'sort'],
    ['sort=--name', 'sort'],
    ['created_after=yesterday', 'created_after'],
    ['created_before=2026-13-45', 'created_before'],
    ['forceRefresh=perhaps', 'forceRefresh'],
  ])('rejects %s with 400 naming the parameter', async (query, parameter) => {
    const res = await ctx.request('GET', `/organizations/${orgId}/projects?${query}`, {
      token: admin.token,
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: any) => e.source.parameter)).toContain(parameter);
  });

  it('computes the effective role in SQL exactly as effectiveProjectRole does', async () => {
    const orgRoles: (Role | null)[] = [null, ...ROLES];
    const projectRoles: (Role | null)[] = [null, ...ROLES];
    for (const organizationRole of orgRoles) {
      for (const projectRole of projectRoles) {
        for (const accessDenied of [false, true]) {
          const [row] = await ctx.db.query(
            `SELECT ${effectiveRoleSql('$1::text')} AS role
             FROM (SELECT $2::text AS role, $3::boolean AS access_denied) pm`,
            [organizationRole, projectRole, projectRole === null ? null : accessDenied],
          );
          expect([organizationRole, projectRole, accessDenied, row.role]).toEqual([
            organizationRole,
            projectRole,
            accessDenied,
            effectiveProjectRole({ organizationRole, projectRole, accessDenied }),
          ]);
        }
      }
    }
  });

  it('answers 404 to a non-member of the organization', async () => {
    const stranger = await ctx.newUser('stranger');
    await ctx.directoryHas(stranger.id); // let the directory consumer settle before shutdown
    const res = await ctx.request('GET', `/organizations/${orgId}/projects`, {
      token: stranger.token,
    });
    expect(res.status).toBe(404);
  });
});
