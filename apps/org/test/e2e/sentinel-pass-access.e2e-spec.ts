import type { OrgTestContext, TestUser } from '../support/org-test-app.js';
import {
  sentinelPassHelpers,
  startSentinelPassWorld,
  type SentinelPassWorld,
} from '../support/sentinel-passes.js';

/**
 * docs/api.md § Sentinel Passes (S = /organizations/{orgId}/projects/{projectId}/sentinel_passes):
 * the role × tenant matrix — VIEWER and MEMBER read, ADMIN and OWNER manage, everyone else 404,
 * denied project access, other organizations' paths — with nothing changed by a refusal.
 * The organization, its members and projects: apps/org/test/support/sentinel-passes.ts.
 */
describe('Sentinel Passes', () => {
  let world: SentinelPassWorld;
  let ctx: OrgTestContext;
  let owner: TestUser;
  let admin: TestUser;
  let member: TestUser;
  let viewer: TestUser;
  let outsider: TestUser;
  let stranger: TestUser;
  let orgId: string;
  let otherOrgId: string;
  let projectId: string;
  let secondProjectId: string;
  let S: string;

  beforeAll(async () => {
    world = await startSentinelPassWorld();
    ({
      ctx,
      owner,
      admin,
      member,
      viewer,
      outsider,
      stranger,
      orgId,
      otherOrgId,
      projectId,
      secondProjectId,
      S,
    } = world);
  });
  afterAll(() => ctx.close());

  const { create, storedHash, countPasses } = sentinelPassHelpers(() => world);

  describe('roles and tenants', () => {
    it('lets VIEWER and MEMBER read but not manage (403, nothing changed); ADMIN and OWNER manage; others get 404', async () => {
      const { pass } = await create({ title: 'Guarded' });
      const one = `${S}/${pass.id}`;
      const reads = [
        ['GET', S],
        ['GET', one],
      ] as const;
      const writes = [
        ['POST', S, { sentinelPass: { title: 'sneaky' } }],
        ['PUT', one, { sentinelPass: { title: 'sneaky' } }],
        ['POST', `${one}/rotate_key`, undefined],
        ['POST', `${one}/revoke`, undefined],
        ['POST', `${one}/activate`, undefined],
        ['DELETE', one, undefined],
      ] as const;
      const hash = await storedHash(pass.id);
      const rows = await countPasses();
      const mark = await ctx.outboxMark();
      for (const as of [viewer, member]) {
        for (const [method, url] of reads) {
          expect((await ctx.request(method, url, { token: as.token })).status).toBe(200);
        }
        for (const [method, url, body] of writes) {
          const res = await ctx.request(method, url, { token: as.token, body });
          expect({ method, url, status: res.status }).toEqual({ method, url, status: 403 });
          expect(res.body.errors[0].code).toBe('FORBIDDEN');
        }
      }
      for (const as of [outsider, stranger]) {
        for (const [method, url, body] of [
          ...reads.map(([m, u]) => [m, u, undefined] as const),
          ...writes,
        ]) {
          const res = await ctx.request(method, url, { token: as.token, body });
          expect({ method, url, status: res.status }).toEqual({ method, url, status: 404 });
        }
      }
      // a member of the organization without access to the second project: 404 there
      const second = `/organizations/${orgId}/projects/${secondProjectId}/sentinel_passes`;
      expect((await ctx.request('GET', second, { token: member.token })).status).toBe(404);
      // the pass through another organization's path, and another organization's project
      expect(
        (
          await ctx.request(
            'GET',
            `/organizations/${otherOrgId}/projects/${projectId}/sentinel_passes/${pass.id}`,
            { token: stranger.token },
          )
        ).status,
      ).toBe(404);
      expect(
        (await ctx.request('GET', `${second}/${pass.id}`, { token: owner.token })).status,
      ).toBe(404);
      expect(await storedHash(pass.id)).toBe(hash);
      expect(await countPasses()).toBe(rows);
      expect(await ctx.outbox(undefined, mark)).toEqual([]);

      // a project member whose access is denied sees nothing of the project's passes
      const project = `/organizations/${orgId}/projects/${projectId}`;
      const deny = await ctx.request('POST', `${project}/deny_access/${viewer.id}`, {
        token: owner.token,
      });
      expect(deny.status).toBe(200);
      expect((await ctx.request('GET', S, { token: viewer.token })).status).toBe(404);
      expect((await ctx.request('GET', one, { token: viewer.token })).status).toBe(404);
      const orgList = await ctx.request('GET', `/organizations/${orgId}/sentinel_passes`, {
        token: viewer.token,
      });
      expect(orgList.status).toBe(200);
      expect(orgList.body.data).toEqual([]);
      const restore = await ctx.request('POST', `${project}/restore_access/${viewer.id}`, {
        token: owner.token,
      });
      expect(restore.status).toBe(200);
      expect((await ctx.request('GET', one, { token: viewer.token })).status).toBe(200);

      // ADMIN manages
      const rotated = await ctx.request('POST', `${one}/rotate_key`, { token: admin.token });
      expect(rotated.status).toBe(200);
      const created = await create({ title: 'By admin' }, admin);
      expect(
        (await ctx.request('DELETE', `${S}/${created.pass.id}`, { token: admin.token })).status,
      ).toBe(204);
      expect((await ctx.request('DELETE', one, { token: owner.token })).status).toBe(204);
    });
  });
});
