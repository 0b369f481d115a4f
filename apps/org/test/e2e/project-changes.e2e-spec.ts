import { RpcClient } from '@wp/messaging';
import { publishEvent } from '@wp/event-testing';
import { waitFor } from '@wp/testing';
import { OrgTestContext, type TestUser } from '../support/org-test-app.js';

/**
 * docs/api.md § Projects (P = /organizations/{organizationId}/projects): update (the data.id
 * rule) and delete (docs/architecture.md § Default project); `has_wallet` from
 * `wallet.wallet.created` (docs/architecture.md § Data ownership and events).
 */
describe('projects: update, delete, has_wallet', () => {
  let ctx: OrgTestContext;
  let owner: TestUser;
  let member: TestUser;
  let orgId: string;

  beforeAll(async () => {
    ctx = await OrgTestContext.start();
    owner = await ctx.newUser('owner');
    member = await ctx.newUser('member');
    orgId = await ctx.newOrganization(owner, 'Projects Inc');
    await ctx.addMember(orgId, owner, member, 'MEMBER');
  });
  afterAll(() => ctx.close());

  const P = (org = orgId) => `/organizations/${org}/projects`;
  describe('PATCH P/{id}', () => {
    it('renames when data.id equals the path id and data.type is project, announcing org.project.updated', async () => {
      const projectId = await ctx.newProject(orgId, owner, 'Before');
      const mark = await ctx.outboxMark();
      const res = await ctx.request('PATCH', `${P()}/${projectId}`, {
        token: owner.token,
        body: { data: { id: projectId, type: 'project', attributes: { name: 'After' } } },
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: projectId, attributes: { name: 'After' } });
      expect((await ctx.outbox('org.project.updated', mark)).map((e) => e.payload)).toEqual([
        {
          organizationId: Number(orgId),
          projectId: Number(projectId),
          name: 'After',
          isDefault: false,
          changedBy: owner.id,
        },
      ]);
    });

    it('answers 409 PROJECT_ID_MISMATCH for another id and 400 without id or type; nothing changes', async () => {
      const projectId = await ctx.newProject(orgId, owner, 'Fixed');
      const mismatch = await ctx.request('PATCH', `${P()}/${projectId}`, {
        token: owner.token,
        body: {
          data: {
            id: String(Number(projectId) + 1000),
            type: 'project',
            attributes: { name: 'X' },
          },
        },
      });
      expect(mismatch.status).toBe(409);
      expect(mismatch.body.errors[0].code).toBe('PROJECT_ID_MISMATCH');
      expect(mismatch.body.errors[0].source.pointer).toBe('/data/id');
      const missing = await ctx.request('PATCH', `${P()}/${projectId}`, {
        token: owner.token,
        body: { data: { attributes: { name: 'X' } } },
      });
      expect(missing.status).toBe(400);
      expect(missing.body.errors.map((e: any) => e.source.pointer).sort()).toEqual([
        '/data/id',
        '/data/type',
      ]);
      const numeric = await ctx.request('PATCH', `${P()}/${projectId}`, {
        token: owner.token,
        body: {
          data: { id: Number(projectId), type: 'project', attributes: { name: 'Numeric id ok' } },
        },
      });
      expect(numeric.status).toBe(200);
      const [row] = await ctx.db.query('SELECT name FROM project WHERE id = $1', [
        Number(projectId),
      ]);
      expect(row.name).toBe('Numeric id ok');
    });
  });

  describe('DELETE P/{id}', () => {
    it('deletes permanently (204): members get role null, analytics an empty key set, then org.project.deleted', async () => {
      const projectId = await ctx.newProject(orgId, owner, 'Doomed');
      const extra = await ctx.newUser('doomed-member');
      await ctx.addProjectMember(orgId, projectId, owner, extra, 'VIEWER');
      const mark = await ctx.outboxMark();
      const res = await ctx.request('DELETE', `${P()}/${projectId}`, { token: owner.token });
      expect(res.status).toBe(204);
      expect(
        await ctx.db.query('SELECT 1 FROM project WHERE id = $1', [Number(projectId)]),
      ).toEqual([]);
      for (const table of ['project_api_key', 'project_membership', 'llm_api_key']) {
        expect(
          await ctx.db.query(`SELECT 1 FROM ${table} WHERE project_id = $1`, [Number(projectId)]),
        ).toEqual([]);
      }
      const events = await ctx.outbox(undefined, mark);
      const memberships = events
        .filter((e) => e.subject === 'org.membership.changed')
        .map((e) => e.payload);
      expect(memberships.map((m) => [m.userId, m.role]).sort()).toEqual(
        [
          [owner.id, null],
          [extra.id, null],
        ].sort(),
      );
      expect(memberships.every((m) => m.version === 2)).toBe(true);
      const keys = events.find((e) => e.subject === 'org.project.keys.changed')!.payload;
      expect(keys).toMatchObject({ projectId: Number(projectId), keys: [], version: 2 });
      expect(events.at(-1)!.subject).toBe('org.project.deleted');
      // The deletion takes the organization's next permission version after its members' ends
      // (docs/architecture.md § Withdrawn permissions at once).
      const membershipVersions = memberships.map((m) => m.organizationVersion as number);
      expect(events.at(-1)!.payload).toEqual({
        organizationId: Number(orgId),
        projectId: Number(projectId),
        organizationVersion: Math.max(...membershipVersions) + 1,
        changedBy: owner.id,
      });
      const again = await ctx.request('GET', `${P()}/${projectId}`, { token: owner.token });
      expect(again.status).toBe(404);
      // Asked before their read model closed the project's wallets, org tells other services
      // that the project is gone, though the OWNER keeps the organization role.
      const standing = (project: string) =>
        ctx.org
          .get(RpcClient)
          .request(
            'org.rpc.memberships.standing',
            { organizationId: Number(orgId), projectId: Number(project), userId: owner.id },
            5000,
          );
      expect(await standing(projectId)).toEqual({
        organizationRole: 'OWNER',
        projectRole: null,
        accessDenied: false,
        projectDeleted: true,
      });
      const kept = await ctx.newProject(orgId, owner, 'Kept');
      expect(await standing(kept)).toMatchObject({
        organizationRole: 'OWNER',
        projectDeleted: false,
      });
    });

    it('makes the oldest remaining project the default when the default is deleted', async () => {
      const org = await ctx.newOrganization(owner, 'Defaults');
      const first = await ctx.defaultProject(org);
      const second = await ctx.newProject(org, owner, 'Second');
      const third = await ctx.newProject(org, owner, 'Third');
      await ctx.db.query("UPDATE project SET created_at = now() - interval '1 day' WHERE id = $1", [
        Number(third),
      ]);
      const mark = await ctx.outboxMark();
      expect(
        (await ctx.request('DELETE', `${P(org)}/${first}`, { token: owner.token })).status,
      ).toBe(204);
      const rows = await ctx.db.query(
        'SELECT id, is_default FROM project WHERE organization_id = $1 ORDER BY id',
        [Number(org)],
      );
      expect(rows).toEqual([
        { id: Number(second), is_default: false },
        { id: Number(third), is_default: true },
      ]);
      expect((await ctx.outbox('org.project.updated', mark)).map((e) => e.payload)).toEqual([
        {
          organizationId: Number(org),
          projectId: Number(third),
          name: 'Third',
          isDefault: true,
          changedBy: owner.id,
        },
      ]);
      // an organization left without projects gets a default again with its next project
      await ctx.request('DELETE', `${P(org)}/${second}`, { token: owner.token });
      await ctx.request('DELETE', `${P(org)}/${third}`, { token: owner.token });
      const next = await ctx.newProject(org, owner, 'Phoenix');
      const got = await ctx.request('GET', `${P(org)}/${next}`, { token: owner.token });
      expect(got.body.data.attributes.isDefault).toBe(true);
    });

    it('refuses a project MEMBER (403) and leaves the project in place', async () => {
      const projectId = await ctx.newProject(orgId, owner, 'Kept');
      const pm = await ctx.newUser('pm');
      await ctx.addProjectMember(orgId, projectId, owner, pm, 'MEMBER');
      const res = await ctx.request('DELETE', `${P()}/${projectId}`, { token: pm.token });
      expect(res.status).toBe(403);
      expect(
        await ctx.db.query('SELECT 1 FROM project WHERE id = $1', [Number(projectId)]),
      ).toHaveLength(1);
    });
  });

  describe('has_wallet', () => {
    it('turns true when the wallet service announces a project wallet (wallet.wallet.created)', async () => {
      const projectId = await ctx.newProject(orgId, owner, 'Funded');
      const wallet = (entityType: 'organization' | 'project', entityId: string) => ({
        addressHash: `0x${'a'.repeat(40)}`,
        entityType,
        entityId,
        purpose: 'project_funds',
        currency: 'CREDITS',
      });
      // a wallet of another kind with the same id, and one for an unknown project, change nothing
      for (const payload of [
        wallet('organization', projectId),
        wallet('project', '999999'),
        wallet('project', projectId),
      ]) {
        await publishEvent(ctx.org, 'wallet.wallet.created', payload);
      }
      await waitFor(
        async () => {
          const res = await ctx.request('GET', `${P()}/${projectId}`, { token: owner.token });
          return res.body.data.attributes.hasWallet === true;
        },
        { what: 'hasWallet' },
      );
      const filtered = await ctx.request('GET', `${P()}?has_wallet=true`, { token: owner.token });
      expect(filtered.body.data.map((p: any) => p.id)).toEqual([projectId]);
    });
  });
});
