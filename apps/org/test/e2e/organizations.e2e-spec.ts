import { countQueries } from '../support/query-count.js';
import { OrgTestContext, type TestUser } from '../support/org-test-app.js';

/**
 * docs/api.md § Organizations: `GET/POST /organizations`, `GET/PATCH /organizations/{id}`, with
 * docs/architecture.md § Identity and access (404 for foreign tenants, `meta.can` from the
 * permission table) and docs/architecture.md § Decisions where the contract is silent (statuses,
 * ids as strings, default project).
 */
describe('organizations', () => {
  let ctx: OrgTestContext;
  let owner: TestUser;
  let outsider: TestUser;

  beforeAll(async () => {
    ctx = await OrgTestContext.start();
    owner = await ctx.newUser('owner');
    outsider = await ctx.newUser('outsider');
  });
  afterAll(() => ctx.close());

  describe('POST /organizations', () => {
    it('answers 200 with the organization, makes the creator OWNER and a default project', async () => {
      const mark = await ctx.outboxMark();
      const res = await ctx.request('POST', '/organizations', {
        token: owner.token,
        body: { data: { type: 'organization', attributes: { name: '  Globex  ' } } },
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ type: 'organization', attributes: { name: 'Globex' } });
      expect(res.body.data.id).toMatch(/^\d+$/);
      expect(res.body.meta).toMatchObject({ role: 'OWNER' });
      expect(res.body.meta.can.organization).toMatchObject({
        manageSettings: true,
        manageMembers: true,
        delete: true,
      });
      const id = Number(res.body.data.id);
      const projects = await ctx.db.query(
        'SELECT name, is_default FROM project WHERE organization_id = $1',
        [id],
      );
      expect(projects).toEqual([{ name: 'Default project', is_default: true }]);

      const events = await ctx.outbox(undefined, mark);
      expect(events.map((e) => e.subject)).toEqual(
        expect.arrayContaining([
          'org.organization.created',
          'org.membership.changed',
          'org.project.created',
        ]),
      );
      const membership = events.find((e) => e.subject === 'org.membership.changed')!;
      expect(membership.payload).toEqual({
        organizationId: id,
        projectId: null,
        userId: owner.id,
        role: 'OWNER',
        accessDenied: false,
        version: 1,
        organizationVersion: expect.any(Number),
      });
    });

    it('rejects a missing name, a blank name and a wrong type with 400 and pointers', async () => {
      const cases: [unknown, string][] = [
        [{ data: { type: 'organization', attributes: {} } }, '/data/attributes/name'],
        [{ data: { type: 'organization', attributes: { name: '   ' } } }, '/data/attributes/name'],
        [{ data: { type: 'project', attributes: { name: 'x' } } }, '/data/type'],
        [{}, '/data'],
      ];
      for (const [body, pointer] of cases) {
        const before = await ctx.db.query('SELECT count(*)::int AS n FROM organization');
        const res = await ctx.request('POST', '/organizations', { token: owner.token, body });
        expect(res.status).toBe(400);
        expect(res.body.errors.map((e: any) => e.source.pointer)).toContain(pointer);
        expect(await ctx.db.query('SELECT count(*)::int AS n FROM organization')).toEqual(before);
      }
    });

    it('requires a bearer token (401)', async () => {
      const res = await ctx.request('POST', '/organizations', {
        body: { data: { type: 'organization', attributes: { name: 'x' } } },
      });
      expect(res.status).toBe(401);
    });
  });

  describe('GET /organizations', () => {
    it('lists only the caller’s organizations with projects, users, memberships and meta.can', async () => {
      const user = await ctx.newUser('lister');
      const mine = await ctx.newOrganization(user, 'Mine');
      const other = await ctx.newOrganization(outsider, 'Not mine');
      await ctx.addMember(mine, user, outsider, 'VIEWER');

      const res = await ctx.request('GET', '/organizations', { token: user.token });
      expect(res.status).toBe(200);
      expect(res.body.data.map((o: any) => o.id)).toEqual([mine]);
      const [org] = res.body.data;
      expect(org.meta.role).toBe('OWNER');
      expect(org.meta.can.project.create).toBe(true);
      expect(org.relationships.users.data).toEqual(
        expect.arrayContaining([
          { type: 'users', id: user.id },
          { type: 'users', id: outsider.id },
        ]),
      );
      expect(org.relationships.projects.data).toHaveLength(1);
      const project = res.body.included.find((r: any) => r.type === 'project');
      expect(project.attributes).toMatchObject({ name: 'Default project', isDefault: true });
      const memberships = res.body.included.filter(
        (r: any) => r.type === 'organization_memberships',
      );
      expect(memberships.map((m: any) => [m.attributes.userId, m.attributes.role])).toEqual(
        expect.arrayContaining([
          [user.id, 'OWNER'],
          [outsider.id, 'VIEWER'],
        ]),
      );

      const asViewer = await ctx.request('GET', '/organizations', { token: outsider.token });
      const seen = asViewer.body.data.find((o: any) => o.id === mine);
      expect(seen.meta.role).toBe('VIEWER');
      expect(seen.meta.can.organization.manageSettings).toBe(false);
      expect(seen.meta.can.project.create).toBe(false);
      expect(asViewer.body.data.map((o: any) => o.id)).toEqual(
        expect.arrayContaining([mine, other]),
      );
    });

    it('answers an empty list for a user without organizations', async () => {
      const loner = await ctx.newUser('loner');
      const res = await ctx.request('GET', '/organizations', { token: loner.token });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
    });

    it('uses the same number of queries for 50 organizations as for 1 (no N+1)', async () => {
      const busy = await ctx.newUser('busy');
      await ctx.newOrganization(busy, 'First');
      const once = await countQueries(ctx, () =>
        ctx.request('GET', '/organizations', { token: busy.token }),
      );
      for (let i = 2; i <= 50; i++) await ctx.newOrganization(busy, `Org ${i}`);
      const started = Date.now();
      const fifty = await countQueries(ctx, async () => {
        const res = await ctx.request('GET', '/organizations', { token: busy.token });
        expect(res.body.data).toHaveLength(50);
        expect(res.body.included.filter((r: any) => r.type === 'project')).toHaveLength(50);
        return res;
      });
      expect(Date.now() - started).toBeLessThan(2000);
      expect(once).toBeGreaterThanOrEqual(3); // organizations, projects, members
      expect(fifty).toBe(once);
      expect(fifty).toBeLessThanOrEqual(4);
    });
  });

  describe('GET /organizations/{id}', () => {
    let orgId: string;
    let viewer: TestUser;

    beforeAll(async () => {
      orgId = await ctx.newOrganization(owner, 'Initech');
      viewer = await ctx.newUser('viewer');
      await ctx.addMember(orgId, owner, viewer, 'VIEWER');
    });

    it('answers the organization with data.id equal to the requested id and the caller’s meta.can', async () => {
      const res = await ctx.request('GET', `/organizations/${orgId}`, { token: viewer.token });
      expect(res.status).toBe(200);
      expect(res.body.data.id).toBe(orgId);
      expect(res.body.data.attributes.name).toBe('Initech');
      expect(res.body.meta.role).toBe('VIEWER');
      expect(res.body.meta.can).toEqual({
        organization: {
          read: true,
          manageSettings: false,
          manageMembers: false,
          delete: false,
          viewKeys: false,
          readAuditLog: false,
          manageSecurity: false,
          manageWebhooks: false,
        },
        project: { create: false },
        wallet: { read: true, transact: false },
      });
      expect(res.body.included).toBeUndefined();
    });

    it('adds users, projects and organization_memberships on include', async () => {
      const res = await ctx.request(
        'GET',
        `/organizations/${orgId}?include=users,projects,organization_memberships&forceRefresh=true`,
        { token: owner.token },
      );
      expect(res.status).toBe(200);
      const types = new Set(res.body.included.map((r: any) => r.type));
      expect(types).toEqual(new Set(['users', 'project', 'organization_memberships']));
      expect(res.body.data.relationships.users.data).toHaveLength(2);
      expect(res.body.data.relationships.projects.data).toHaveLength(1);
      const ownerMembership = res.body.included.find(
        (r: any) => r.type === 'organization_memberships' && r.attributes.userId === owner.id,
      );
      expect(ownerMembership.attributes.role).toBe('OWNER');
    });

    it('includes only what is asked for', async () => {
      const res = await ctx.request('GET', `/organizations/${orgId}?include=users`, {
        token: owner.token,
      });
      expect(new Set(res.body.included.map((r: any) => r.type))).toEqual(new Set(['users']));
      expect(Object.keys(res.body.data.relationships)).toEqual(['users']);
    });

    it('rejects an unknown include value and a non-boolean forceRefresh with 400', async () => {
      const bad = await ctx.request('GET', `/organizations/${orgId}?include=users,wallets`, {
        token: owner.token,
      });
      expect(bad.status).toBe(400);
      expect(bad.body.errors[0].source.parameter).toBe('include');
      const flag = await ctx.request('GET', `/organizations/${orgId}?forceRefresh=maybe`, {
        token: owner.token,
      });
      expect(flag.status).toBe(400);
      expect(flag.body.errors[0].source.parameter).toBe('forceRefresh');
    });

    it('answers 404 to a non-member, for an unknown id, and 400 for a malformed id', async () => {
      const foreign = await ctx.request('GET', `/organizations/${orgId}`, {
        token: outsider.token,
      });
      expect(foreign.status).toBe(404);
      const unknown = await ctx.request('GET', '/organizations/999999', { token: owner.token });
      expect(unknown.status).toBe(404);
      expect(foreign.body).toEqual(unknown.body);
      const malformed = await ctx.request('GET', '/organizations/abc', { token: owner.token });
      expect(malformed.status).toBe(400);
      expect(malformed.body.errors[0].source.parameter).toBe('organizationId');
    });
  });

  describe('PATCH /organizations/{id}', () => {
    it('renames for an ADMIN and announces org.organization.updated', async () => {
      const orgId = await ctx.newOrganization(owner, 'Old name');
      const admin = await ctx.newUser('admin');
      await ctx.addMember(orgId, owner, admin, 'ADMIN');
      const mark = await ctx.outboxMark();
      const res = await ctx.request('PATCH', `/organizations/${orgId}`, {
        token: admin.token,
        body: { data: { type: 'organization', id: orgId, attributes: { name: 'New name' } } },
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: orgId, attributes: { name: 'New name' } });
      const got = await ctx.request('GET', `/organizations/${orgId}`, { token: owner.token });
      expect(got.body.data.attributes.name).toBe('New name');
      const events = await ctx.outbox('org.organization.updated', mark);
      expect(events.map((e) => e.payload)).toEqual([
        { organizationId: Number(orgId), name: 'New name', changedBy: admin.id },
      ]);
    });

    it('refuses a MEMBER with 403 FORBIDDEN and changes nothing', async () => {
      const orgId = await ctx.newOrganization(owner, 'Stays');
      const member = await ctx.newUser('member');
      await ctx.addMember(orgId, owner, member, 'MEMBER');
      const res = await ctx.request('PATCH', `/organizations/${orgId}`, {
        token: member.token,
        body: { data: { attributes: { name: 'Changed' } } },
      });
      expect(res.status).toBe(403);
      expect(res.body.errors[0].code).toBe('FORBIDDEN');
      const got = await ctx.request('GET', `/organizations/${orgId}`, { token: owner.token });
      expect(got.body.data.attributes.name).toBe('Stays');
    });

    it('answers 409 ORGANIZATION_ID_MISMATCH when data.id differs from the path', async () => {
      const orgId = await ctx.newOrganization(owner, 'Mismatch');
      const res = await ctx.request('PATCH', `/organizations/${orgId}`, {
        token: owner.token,
        body: { data: { id: '12345', attributes: { name: 'Other' } } },
      });
      expect(res.status).toBe(409);
      expect(res.body.errors[0].code).toBe('ORGANIZATION_ID_MISMATCH');
      const got = await ctx.request('GET', `/organizations/${orgId}`, { token: owner.token });
      expect(got.body.data.attributes.name).toBe('Mismatch');
    });

    it('rejects a missing name with 400', async () => {
      const orgId = await ctx.newOrganization(owner, 'Named');
      const res = await ctx.request('PATCH', `/organizations/${orgId}`, {
        token: owner.token,
        body: { data: { attributes: {} } },
      });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].source.pointer).toBe('/data/attributes/name');
    });
  });
});
