import type { TestUser } from '../support/org-test-app.js';
import { sentinelPassHelpers, useSentinelPassWorld } from '../support/sentinel-passes.js';

/**
 * docs/api.md § Sentinel Passes (S = /organizations/{orgId}/projects/{projectId}/sentinel_passes),
 * docs/api.md § Organizations (`GET /organizations/{id}/sentinel_passes`), docs/api.md § Projects
 * (`has_tools`, `tools_count`, `include=sentinelPasses`): order, filters, tools_count and the
 * organization-level list per role.
 * The organization, its members and projects: apps/org/test/support/sentinel-passes.ts.
 */
describe('Sentinel Passes', () => {
  const world = useSentinelPassWorld();

  const { create, toolsCount } = sentinelPassHelpers(world);

  describe('lists, filters, tools_count, include', () => {
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      ids.alpha = (await create({ title: 'Alpha 100% bot', tags: ['ci', 'prod'] })).pass.id;
      ids.beta = (
        await create({ title: 'beta', tags: ['ci'], credentialType: 'oauth_client' })
      ).pass.id;
      ids.gamma = (await create({ title: 'GAMMA bot', tags: ['prod', 'eu', 'ci'] })).pass.id;
      await world.ctx.request('POST', `${world.S}/${ids.gamma}/revoke`, {
        token: world.owner.token,
      });
      ids.other = (
        await create(
          { title: 'Other project bot', tags: ['ci'] },
          world.owner,
          `/organizations/${world.orgId}/projects/${world.secondProjectId}/sentinel_passes`,
        )
      ).pass.id;
    });
    afterAll(async () => {
      for (const key of ['alpha', 'beta', 'gamma']) {
        await world.ctx.request('DELETE', `${world.S}/${ids[key]}`, { token: world.owner.token });
      }
    });

    const listed = async (query: string, path = world.S, as: TestUser = world.owner) => {
      const res = await world.ctx.request('GET', `${path}${query}`, { token: as.token });
      expect(res.status).toBe(200);
      return res.body.data.map((p: any) => p.id);
    };

    it('lists a project’s passes oldest first and filters by active, credential_type, search and tags (all of them)', async () => {
      expect(await listed('')).toEqual([ids.alpha, ids.beta, ids.gamma]);
      expect(await listed('?active=true')).toEqual([ids.alpha, ids.beta]);
      expect(await listed('?active=0')).toEqual([ids.gamma]);
      expect(await listed('?credential_type=oauth_client')).toEqual([ids.beta]);
      expect(await listed('?credential_type=api_key')).toEqual([ids.alpha, ids.gamma]);
      expect(await listed('?search=BOT')).toEqual([ids.alpha, ids.gamma]);
      expect(await listed('?search=100%25')).toEqual([ids.alpha]);
      expect(await listed('?search=_')).toEqual([]);
      expect(await listed('?tags=ci')).toEqual([ids.alpha, ids.beta, ids.gamma]);
      expect(await listed('?tags=prod,ci')).toEqual([ids.alpha, ids.gamma]);
      expect(await listed('?tags=prod,%20eu%20')).toEqual([ids.gamma]);
      expect(await listed('?tags=prod,nope')).toEqual([]);
      expect(await listed('?tags=PROD')).toEqual([]);
      expect(await listed('?tags=ci&active=true&search=a')).toEqual([ids.alpha, ids.beta]);
    });

    it('keeps tools_count equal to the number of passes, which has_tools and sort=tools_count use', async () => {
      expect(await toolsCount()).toBe(3);
      expect(await toolsCount(world.secondProjectId)).toBe(1);
      const P = `/organizations/${world.orgId}/projects`;
      const withTools = await listed('?has_tools=true', P);
      expect(withTools.sort()).toEqual([world.projectId, world.secondProjectId].sort());
      const withoutTools = await listed('?has_tools=false', P);
      expect(withoutTools).not.toContain(world.projectId);
      expect(withoutTools).toContain(await world.ctx.defaultProject(world.orgId));
      const sorted = await listed('?sort=-tools_count', P);
      expect(sorted.slice(0, 2)).toEqual([world.projectId, world.secondProjectId]);
      const project = await world.ctx.request('GET', `${P}/${world.projectId}`, {
        token: world.owner.token,
      });
      expect(project.body.data.attributes).toMatchObject({ toolsCount: 3, hasTools: true });
    });

    it('includes the project’s passes with include=sentinelPasses (no keys), for every role that can read', async () => {
      for (const as of [world.owner, world.viewer]) {
        const res = await world.ctx.request(
          'GET',
          `/organizations/${world.orgId}/projects/${world.projectId}?include=sentinelPasses`,
          {
            token: as.token,
          },
        );
        expect(res.status).toBe(200);
        expect(res.body.data.relationships.sentinelPasses.data).toEqual(
          [ids.alpha, ids.beta, ids.gamma].map((id) => ({ type: 'studio_tool', id })),
        );
        expect(res.body.included.map((r: any) => r.id)).toEqual([ids.alpha, ids.beta, ids.gamma]);
        expect(res.body.included[0].attributes.assetType).toBe('security');
        expect(JSON.stringify(res.body)).not.toMatch(/keyHash|"secret"|sp_[A-Za-z0-9_-]{43}/);
      }
    });

    it('lists passes across the organization’s projects the caller can see, with the same filters', async () => {
      const O = `/organizations/${world.orgId}/sentinel_passes`;
      expect(await listed('', O, world.owner)).toEqual([ids.alpha, ids.beta, ids.gamma, ids.other]);
      expect(await listed('', O, world.admin)).toEqual([ids.alpha, ids.beta, ids.gamma, ids.other]);
      // MEMBER and VIEWER are members of the first project only
      expect(await listed('', O, world.member)).toEqual([ids.alpha, ids.beta, ids.gamma]);
      expect(await listed('', O, world.viewer)).toEqual([ids.alpha, ids.beta, ids.gamma]);
      expect(await listed('?tags=ci&active=true', O)).toEqual([ids.alpha, ids.beta, ids.other]);
      expect(await listed('?search=other', O)).toEqual([ids.other]);
      expect(await listed('?credential_type=oauth_client', O)).toEqual([ids.beta]);
      for (const as of [world.outsider, world.stranger]) {
        const res = await world.ctx.request('GET', O, { token: as.token });
        expect(res.status).toBe(404);
      }
    });
  });
});
