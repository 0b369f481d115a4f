import { randomUUID } from 'node:crypto';
import { registerActive } from '../support/flows.js';
import {
  agentExchangeHelpers,
  closeAgentExchangeWorld,
  startAgentExchangeWorld,
  type AgentExchangeWorld,
} from '../support/agent-exchange.js';
import type { AuthTestContext } from '../support/auth-test-app.js';
import { setMembership, upsertPass, type EventPublisher } from '../support/sentinel.js';

/**
 * docs/architecture.md § Sentinel Pass key: agents exchange a pass id and key for an agent access
 * token at `POST /oauth/token` (client_credentials); a pass's activity (logs, export, metrics) is
 * readable by members of the pass's project and organization ADMINs only: 404 to everyone else,
 * denied or ended memberships and the agent token itself.
 */
describe('auth: Sentinel Pass agent token exchange and activity recording', () => {
  let world: AgentExchangeWorld;
  let ctx: AuthTestContext;
  let events: EventPublisher;

  beforeAll(async () => {
    world = await startAgentExchangeWorld();
    ({ ctx, events } = world);
  });
  afterAll(() => closeAgentExchangeWorld(world));

  const { exchange } = agentExchangeHelpers(() => world);

  describe('who may read a pass activity', () => {
    let pass: { passId: string };
    const read = (token: string, path = 'logs') =>
      ctx.get(
        `/v1/api/oauth/agent/activity/${path}?agent_user_id=${pass.passId}`,
        ctx.bearer(token),
      );

    beforeAll(async () => {
      pass = await upsertPass(ctx, events, { organizationId: 1, projectId: 10 });
    });

    it('answers 404 on logs, export and metrics to a user of another organization', async () => {
      const outsider = await registerActive(ctx);
      await setMembership(ctx, events, {
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
      const unknown = await ctx.get(
        `/v1/api/oauth/agent/activity/logs?agent_user_id=${randomUUID()}`,
        ctx.bearer(outsider.accessToken),
      );
      expect(unknown.statusCode).toBe(404);
    });

    it('lets an organization ADMIN read without project membership, but not a plain organization MEMBER', async () => {
      const admin = await registerActive(ctx);
      await setMembership(ctx, events, {
        userId: admin.userId,
        organizationId: 1,
        projectId: null,
        role: 'ADMIN',
      });
      expect((await read(admin.accessToken)).statusCode).toBe(200);
      const plain = await registerActive(ctx);
      await setMembership(ctx, events, {
        userId: plain.userId,
        organizationId: 1,
        projectId: null,
        role: 'MEMBER',
      });
      expect((await read(plain.accessToken)).statusCode).toBe(404);
    });

    it('refuses a denied project member and one whose membership ended', async () => {
      const denied = await registerActive(ctx);
      await setMembership(ctx, events, {
        userId: denied.userId,
        organizationId: 1,
        projectId: 10,
        role: 'MEMBER',
      });
      expect((await read(denied.accessToken)).statusCode).toBe(200);
      await setMembership(ctx, events, {
        userId: denied.userId,
        organizationId: 1,
        projectId: 10,
        role: 'MEMBER',
        accessDenied: true,
        version: 2,
      });
      expect((await read(denied.accessToken)).statusCode).toBe(404);
      await setMembership(ctx, events, {
        userId: denied.userId,
        organizationId: 1,
        projectId: 10,
        role: null,
        version: 3,
      });
      expect((await read(denied.accessToken)).statusCode).toBe(404);
    });

    it('answers 404 to the agent token itself', async () => {
      const own = await upsertPass(ctx, events, {});
      const token = (await exchange(own.passId, own.key)).json().data.attributes.accessToken;
      const res = await ctx.get(
        `/v1/api/oauth/agent/activity/logs?agent_user_id=${own.passId}`,
        ctx.bearer(token),
      );
      expect(res.statusCode).toBe(404);
    });
  });
});
