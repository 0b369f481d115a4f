import { randomUUID } from 'node:crypto';
import { registerActive } from '../support/flows.js';
import { agentExchangeHelpers, useAgentExchangeWorld } from '../support/agent-exchange.js';
import { setMembership, upsertPass } from '../support/sentinel.js';

/**
 * docs/architecture.md § Sentinel Pass key: agents exchange a pass id and key for an agent access
 * token at `POST /oauth/token` (client_credentials); a pass's activity (logs, export, metrics) is
 * readable by members of the pass's project and organization ADMINs only: 404 to everyone else,
 * denied or ended memberships and the agent token itself.
 */
describe('auth: Sentinel Pass agent token exchange and activity recording', () => {
  const world = useAgentExchangeWorld();

  const { exchange } = agentExchangeHelpers(world);

  describe('who may read a pass activity', () => {
    let pass: { passId: string };
    const read = (token: string, path = 'logs') =>
      world.ctx.get(
        `/v1/api/oauth/agent/activity/${path}?agent_user_id=${pass.passId}`,
        world.ctx.bearer(token),
      );

    beforeAll(async () => {
      pass = await upsertPass(world.ctx, world.events, { organizationId: 1, projectId: 10 });
    });

    it('answers 404 on logs, export and metrics to a user of another organization', async () => {
      const outsider = await registerActive(world.ctx);
      await setMembership(world.ctx, world.events, {
        userId: outsider.userId,
        organizationId: 2,
        projectId: null,
        role: 'OWNER',
      });
      for (const path of ['logs', 'export', 'metrics']) {
        const res = await read(outsider.accessToken, path);
        expect(res.statusCode).toBe(404);
        expect(res.json().errors[0].code).toBe('NOT_FOUND');
      }
      // Same answer as for a pass that does not exist.
      const unknown = await world.ctx.get(
        `/v1/api/oauth/agent/activity/logs?agent_user_id=${randomUUID()}`,
        world.ctx.bearer(outsider.accessToken),
      );
      expect(unknown.statusCode).toBe(404);
    });

    it('lets an organization ADMIN read without project membership, but not a plain organization MEMBER', async () => {
      const admin = await registerActive(world.ctx);
      await setMembership(world.ctx, world.events, {
        userId: admin.userId,
        organizationId: 1,
        projectId: null,
        role: 'ADMIN',
      });
      expect((await read(admin.accessToken)).statusCode).toBe(200);
      const plain = await registerActive(world.ctx);
      await setMembership(world.ctx, world.events, {
        userId: plain.userId,
        organizationId: 1,
        projectId: null,
        role: 'MEMBER',
      });
      expect((await read(plain.accessToken)).statusCode).toBe(404);
    });

    it('refuses a denied project member and one whose membership ended', async () => {
      const denied = await registerActive(world.ctx);
      await setMembership(world.ctx, world.events, {
        userId: denied.userId,
        organizationId: 1,
        projectId: 10,
        role: 'MEMBER',
      });
      expect((await read(denied.accessToken)).statusCode).toBe(200);
      await setMembership(world.ctx, world.events, {
        userId: denied.userId,
        organizationId: 1,
        projectId: 10,
        role: 'MEMBER',
        accessDenied: true,
        version: 2,
      });
      expect((await read(denied.accessToken)).statusCode).toBe(404);
      await setMembership(world.ctx, world.events, {
        userId: denied.userId,
        organizationId: 1,
        projectId: 10,
        role: null,
        version: 3,
      });
      expect((await read(denied.accessToken)).statusCode).toBe(404);
    });

    it('answers 404 to the agent token itself', async () => {
      const own = await upsertPass(world.ctx, world.events, {});
      const token = (await exchange(own.passId, own.key)).json().data.attributes.accessToken;
      const res = await world.ctx.get(
        `/v1/api/oauth/agent/activity/logs?agent_user_id=${own.passId}`,
        world.ctx.bearer(token),
      );
      expect(res.statusCode).toBe(404);
    });
  });
});
