import { agentExchangeHelpers, useAgentExchangeWorld } from '../support/agent-exchange.js';
import { upsertPass } from '../support/sentinel.js';

/**
 * docs/architecture.md § Sentinel Pass key: agents exchange a pass id and key for an agent access
 * token at `POST /oauth/token` (client_credentials); every agent call of any service built on
 * `PlatformModule` (the probe service) is recorded with its route template and counted in the
 * pass's usage; calls with user tokens are not recorded.
 */
describe('auth: Sentinel Pass agent token exchange and activity recording', () => {
  const world = useAgentExchangeWorld();

  const { exchange, logsOf } = agentExchangeHelpers(world);

  it('records agent calls to another service built on PlatformModule as api_request and error with the route template, and counts usage', async () => {
    const pass = await upsertPass(world.ctx, world.events, {});
    const token = (await exchange(pass.passId, pass.key)).json().data.attributes.accessToken;
    const call = (id: string) =>
      world.probe.inject({
        method: 'GET',
        url: `/v1/api/probe/organizations/${id}?x=1`,
        headers: { 'api-key': world.ctx.apiKey, authorization: `Bearer ${token}` },
      });
    const ok = await call('1');
    expect(ok.statusCode).toBe(200);
    expect(ok.json().agent).toMatchObject({ organizationId: 1, projectId: 10 });
    expect((await call('404')).statusCode).toBe(404);

    const entries = await logsOf(pass.passId, (e) => e.length === 3);
    const byType = (t: string) => entries.filter((e) => e.activity_type === t);
    expect(byType('token_generation')).toHaveLength(1);
    expect(byType('api_request')).toEqual([
      expect.objectContaining({
        service: 'org',
        endpoint: '/v1/api/probe/organizations/:organizationId',
        method: 'GET',
        status_code: 200,
        success: true,
        client_address: expect.any(String),
      }),
    ]);
    expect(byType('error')).toEqual([
      expect.objectContaining({
        service: 'org',
        endpoint: '/v1/api/probe/organizations/:organizationId',
        status_code: 404,
        success: false,
      }),
    ]);
    expect(byType('api_request')[0].latency_ms).toBeGreaterThanOrEqual(0);
    const [row] = await world.ctx.db.query<{ usage_count: string }[]>(
      'SELECT usage_count FROM sentinel_pass WHERE id = $1',
      [pass.passId],
    );
    expect(Number(row.usage_count)).toBe(1);
  });

  it('does not record calls made with user tokens', async () => {
    const res = await world.probe.inject({
      method: 'GET',
      url: '/v1/api/probe/organizations/1',
      headers: { 'api-key': world.ctx.apiKey, authorization: `Bearer ${world.member.accessToken}` },
    });
    expect(res.statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 1500)); // > the flush periods of both services
    const rows = await world.ctx.db.query<{ n: string }[]>(
      'SELECT count(*) AS n FROM agent_activity WHERE agent_user_id = $1',
      [world.member.userId],
    );
    expect(rows[0].n).toBe('0');
  });
});
