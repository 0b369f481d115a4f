import { sentinelPassHelpers, useSentinelPassWorld } from '../support/sentinel-passes.js';

/**
 * docs/api.md § Sentinel Passes (S = /organizations/{orgId}/projects/{projectId}/sentinel_passes):
 * the role × tenant matrix — VIEWER and MEMBER read, ADMIN and OWNER manage, everyone else 404,
 * denied project access, other organizations' paths — with nothing changed by a refusal.
 * The organization, its members and projects: apps/org/test/support/sentinel-passes.ts.
 */
describe('Sentinel Passes', () => {
  const world = useSentinelPassWorld();

  const { create, storedHash, countPasses } = sentinelPassHelpers(world);

  describe('roles and tenants', () => {
    it('lets VIEWER and MEMBER read but not manage (403, nothing changed); ADMIN and OWNER manage; others get 404', async () => {
      const { pass } = await create({ title: 'Guarded' });
      const one = `${world.S}/${pass.id}`;
      const reads = [
        ['GET', world.S],
        ['GET', one],
      ] as const;
      const writes = [
        ['POST', world.S, { sentinelPass: { title: 'sneaky' } }],
        ['PUT', one, { sentinelPass: { title: 'sneaky' } }],
        ['POST', `${one}/rotate_key`, undefined],
        ['POST', `${one}/revoke`, undefined],
        ['POST', `${one}/activate`, undefined],
        ['DELETE', one, undefined],
      ] as const;
      const hash = await storedHash(pass.id);
      const rows = await countPasses();
      const mark = await world.ctx.outboxMark();
      for (const as of [world.viewer, world.member]) {
        for (const [method, url] of reads) {
          expect((await world.ctx.request(method, url, { token: as.token })).status).toBe(200);
        }
        for (const [method, url, body] of writes) {
          const res = await world.ctx.request(method, url, { token: as.token, body });
          expect({ method, url, status: res.status }).toEqual({ method, url, status: 403 });
          expect(res.body.errors[0].code).toBe('FORBIDDEN');
        }
      }
      for (const as of [world.outsider, world.stranger]) {
        for (const [method, url, body] of [
          ...reads.map(([m, u]) => [m, u, undefined] as const),
          ...writes,
        ]) {
          const res = await world.ctx.request(method, url, { token: as.token, body });
          expect({ method, url, status: res.status }).toEqual({ method, url, status: 404 });
        }
      }
      // a member of the organization without access to the second project: 404 there
      const second = `/organizations/${world.orgId}/projects/${world.secondProjectId}/sentinel_passes`;
      expect((await world.ctx.request('GET', second, { token: world.member.token })).status).toBe(
        404,
      );
      // the pass through another organization's path, and another organization's project
      expect(
        (
          await world.ctx.request(
            'GET',
            `/organizations/${world.otherOrgId}/projects/${world.projectId}/sentinel_passes/${pass.id}`,
            { token: world.stranger.token },
          )
        ).status,
      ).toBe(404);
      expect(
        (await world.ctx.request('GET', `${second}/${pass.id}`, { token: world.owner.token }))
          .status,
      ).toBe(404);
      expect(await storedHash(pass.id)).toBe(hash);
      expect(await countPasses()).toBe(rows);
      expect(await world.ctx.outbox(undefined, mark)).toEqual([]);

      // a project member whose access is denied sees nothing of the project's passes
      const project = `/organizations/${world.orgId}/projects/${world.projectId}`;
      const deny = await world.ctx.request('POST', `${project}/deny_access/${world.viewer.id}`, {
        token: world.owner.token,
      });
      expect(deny.status).toBe(200);
      expect((await world.ctx.request('GET', world.S, { token: world.viewer.token })).status).toBe(
        404,
      );
      expect((await world.ctx.request('GET', one, { token: world.viewer.token })).status).toBe(404);
      const orgList = await world.ctx.request(
        'GET',
        `/organizations/${world.orgId}/sentinel_passes`,
        {
          token: world.viewer.token,
        },
      );
      expect(orgList.status).toBe(200);
      expect(orgList.body.data).toEqual([]);
      const restore = await world.ctx.request(
        'POST',
        `${project}/restore_access/${world.viewer.id}`,
        {
          token: world.owner.token,
        },
      );
      expect(restore.status).toBe(200);
      expect((await world.ctx.request('GET', one, { token: world.viewer.token })).status).toBe(200);

      // ADMIN manages
      const rotated = await world.ctx.request('POST', `${one}/rotate_key`, {
        token: world.admin.token,
      });
      expect(rotated.status).toBe(200);
      const created = await create({ title: 'By admin' }, world.admin);
      expect(
        (
          await world.ctx.request('DELETE', `${world.S}/${created.pass.id}`, {
            token: world.admin.token,
          })
        ).status,
      ).toBe(204);
      expect((await world.ctx.request('DELETE', one, { token: world.owner.token })).status).toBe(
        204,
      );
    });
  });
});
