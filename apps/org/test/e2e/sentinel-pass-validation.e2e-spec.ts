import { sentinelPassHelpers, useSentinelPassWorld } from '../support/sentinel-passes.js';

/**
 * docs/api.md § Sentinel Passes (S = /organizations/{orgId}/projects/{projectId}/sentinel_passes):
 * malformed bodies, ids and query parameters answer 400 with a pointer and write nothing (no row,
 * no event, tools_count unchanged); entityType/entityId may name the path's project.
 * The organization, its members and projects: apps/org/test/support/sentinel-passes.ts.
 */
describe('Sentinel Passes', () => {
  const world = useSentinelPassWorld();

  const { create, toolsCount, countPasses } = sentinelPassHelpers(world);

  describe('validation', () => {
    it('answers 400 with a pointer and writes nothing for every malformed body', async () => {
      const past = '2020-01-01T00:00:00Z';
      const cases: [unknown, string][] = [
        [{ sentinelPass: {} }, '/sentinelPass/title'],
        [{ sentinelPass: { title: '   ' } }, '/sentinelPass/title'],
        [{ sentinelPass: { title: 'x'.repeat(201) } }, '/sentinelPass/title'],
        [{ title: 'not wrapped' }, '/sentinelPass'],
        [{ sentinelPass: { title: 'a', permissions: ['has space'] } }, '/sentinelPass/permissions'],
        [{ sentinelPass: { title: 'a', permissions: [''] } }, '/sentinelPass/permissions'],
        [{ sentinelPass: { title: 'a', permissions: [42] } }, '/sentinelPass/permissions'],
        [{ sentinelPass: { title: 'a', permissions: ['a/b'] } }, '/sentinelPass/permissions'],
        [
          { sentinelPass: { title: 'a', permissions: ['x'.repeat(101)] } },
          '/sentinelPass/permissions',
        ],
        [
          { sentinelPass: { title: 'a', permissions: Array.from({ length: 51 }, () => 'read') } },
          '/sentinelPass/permissions',
        ],
        [
          { sentinelPass: { title: 'a', permissions: 'projects:read' } },
          '/sentinelPass/permissions',
        ],
        [{ sentinelPass: { title: 'a', expiresAt: past } }, '/sentinelPass/expiresAt'],
        [{ sentinelPass: { title: 'a', expiresAt: 'tomorrow' } }, '/sentinelPass/expiresAt'],
        [{ sentinelPass: { title: 'a', entityType: 'organization' } }, '/sentinelPass/entityType'],
        [
          { sentinelPass: { title: 'a', entityId: world.secondProjectId } },
          '/sentinelPass/entityId',
        ],
        [{ sentinelPass: { title: 'a', tags: ['a,b'] } }, '/sentinelPass/tags'],
        [{ sentinelPass: { title: 'a', tags: [''] } }, '/sentinelPass/tags'],
        [{ sentinelPass: { title: 'a', scopes: ['has space'] } }, '/sentinelPass/scopes'],
        [
          { sentinelPass: { title: 'a', allowedReferers: ['a b'] } },
          '/sentinelPass/allowedReferers',
        ],
        [
          { sentinelPass: { title: 'a', credentialType: 'API KEY' } },
          '/sentinelPass/credentialType',
        ],
        [{ sentinelPass: { title: 'a', description: 42 } }, '/sentinelPass/description'],
      ];
      const rows = await countPasses();
      const mark = await world.ctx.outboxMark();
      const tools = await toolsCount();
      for (const [body, pointer] of cases) {
        const res = await world.ctx.request('POST', world.S, { token: world.owner.token, body });
        expect({ body, status: res.status }).toEqual({ body, status: 400 });
        expect(res.body.errors.map((e: any) => e.source.pointer)).toContain(pointer);
      }
      expect(await countPasses()).toBe(rows);
      expect(await world.ctx.outbox(undefined, mark)).toEqual([]);
      expect(await toolsCount()).toBe(tools);
    });

    it('accepts entityId equal to the path project and entityType project', async () => {
      const { pass } = await create({
        title: 'Explicit',
        entityType: 'project',
        entityId: Number(world.projectId),
      });
      expect(pass.attributes.entityId).toBe(world.projectId);
      await world.ctx.request('DELETE', `${world.S}/${pass.id}`, { token: world.owner.token });
    });

    it('rejects malformed PUT bodies, ids and query parameters (400) and changes nothing', async () => {
      const { pass } = await create({ title: 'Stable' });
      const mark = await world.ctx.outboxMark();
      for (const body of [
        { sentinelPass: { title: '' } },
        { sentinelPass: { permissions: ['root access'] } },
        { sentinelPass: { expiresAt: '2001-01-01T00:00:00Z' } },
        {},
      ]) {
        const res = await world.ctx.request('PUT', `${world.S}/${pass.id}`, {
          token: world.owner.token,
          body,
        });
        expect(res.status).toBe(400);
      }
      expect(
        (await world.ctx.request('GET', `${world.S}/not-a-uuid`, { token: world.owner.token }))
          .status,
      ).toBe(400);
      expect(
        (
          await world.ctx.request(
            'GET',
            `/organizations/${world.orgId}/projects/abc/sentinel_passes`,
            {
              token: world.owner.token,
            },
          )
        ).status,
      ).toBe(400);
      for (const query of [
        'active=maybe',
        'credential_type=Bad-Type',
        `search=${'x'.repeat(201)}`,
        'tags=,' + 'y'.repeat(51),
      ]) {
        const res = await world.ctx.request('GET', `${world.S}?${query}`, {
          token: world.owner.token,
        });
        expect({ query, status: res.status }).toEqual({ query, status: 400 });
        const org = await world.ctx.request(
          'GET',
          `/organizations/${world.orgId}/sentinel_passes?${query}`,
          {
            token: world.owner.token,
          },
        );
        expect({ query, status: org.status }).toEqual({ query, status: 400 });
      }
      expect(await world.ctx.outbox(undefined, mark)).toEqual([]);
      const after = await world.ctx.request('GET', `${world.S}/${pass.id}`, {
        token: world.owner.token,
      });
      expect(after.body.data.attributes.title).toBe('Stable');
      await world.ctx.request('DELETE', `${world.S}/${pass.id}`, { token: world.owner.token });
    });
  });
});
