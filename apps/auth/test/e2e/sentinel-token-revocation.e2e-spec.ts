import { agentSessionId } from '@wp/security';
import { decodeJwt } from 'jose';
import { agentExchangeHelpers, useAgentExchangeWorld } from '../support/agent-exchange.js';
import { upsertPass } from '../support/sentinel.js';

/**
 * docs/architecture.md § Sentinel Pass key: agents exchange a pass id and key for an agent access
 * token at `POST /oauth/token` (client_credentials); docs/architecture.md § Withdrawn permissions
 * at once: every service (here the probe service built on `PlatformModule`) refuses agent tokens
 * issued before a revocation, rotation or deletion, and takes org's credential epoch when it is
 * ahead.
 */
describe('auth: Sentinel Pass agent token exchange and activity recording', () => {
  const world = useAgentExchangeWorld();

  const { exchange } = agentExchangeHelpers(world);

  it('makes every service refuse agent tokens issued before a revocation or key rotation, but not tokens issued after', async () => {
    const pass = await upsertPass(world.ctx, world.events, {});
    const tokenOf = async (key: string) =>
      (await exchange(pass.passId, key)).json().data.attributes.accessToken as string;
    const call = (token: string) =>
      world.probe.inject({
        method: 'GET',
        url: '/v1/api/probe/organizations/1',
        headers: { 'api-key': world.ctx.apiKey, authorization: `Bearer ${token}` },
      });
    const before = await tokenOf(pass.key);
    expect((await call(before)).statusCode).toBe(200);
    await upsertPass(world.ctx, world.events, { ...pass, active: false, version: 2 });
    const refused = await call(before);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().errors[0].code).toBe('TOKEN_REVOKED');

    await upsertPass(world.ctx, world.events, { ...pass, active: true, version: 3 });
    const reactivated = await tokenOf(pass.key);
    expect((await call(reactivated)).statusCode).toBe(200);
    expect((await call(before)).statusCode).toBe(401);

    const rotated = await upsertPass(world.ctx, world.events, { passId: pass.passId, version: 4 });
    expect((await call(reactivated)).statusCode).toBe(401);
    expect((await call(await tokenOf(rotated.key))).statusCode).toBe(200);
  });

  it('takes org’s credential epoch when it is ahead (a missed event): older tokens are refused, new ones carry that epoch', async () => {
    const pass = await upsertPass(world.ctx, world.events, { credentialEpoch: 0 });
    const tokenOf = async () =>
      (await exchange(pass.passId, pass.key)).json().data.attributes.accessToken as string;
    const sidOf = (token: string) => decodeJwt(token).sid as string;
    const call = (token: string) =>
      world.probe.inject({
        method: 'GET',
        url: '/v1/api/probe/organizations/1',
        headers: { 'api-key': world.ctx.apiKey, authorization: `Bearer ${token}` },
      });
    const before = await tokenOf();
    expect(sidOf(before)).toBe(agentSessionId(pass.passId, 0));
    // auth never saw version 2 (a revoke org counted as the end of epoch 0), only version 3
    await upsertPass(world.ctx, world.events, { ...pass, version: 3, credentialEpoch: 1 });
    expect((await call(before)).json().errors?.[0]?.code).toBe('TOKEN_REVOKED');
    const after = await tokenOf();
    expect(sidOf(after)).toBe(agentSessionId(pass.passId, 1));
    expect((await call(after)).statusCode).toBe(200);
    // an event carrying a lower epoch (published before org counted) never lowers it
    await upsertPass(world.ctx, world.events, { ...pass, version: 4, credentialEpoch: 0 });
    expect(sidOf(await tokenOf())).toBe(agentSessionId(pass.passId, 1));
  });

  it('makes every service refuse agent tokens issued before the pass was deleted', async () => {
    const pass = await upsertPass(world.ctx, world.events, {});
    const token = (await exchange(pass.passId, pass.key)).json().data.attributes
      .accessToken as string;
    const call = () =>
      world.probe.inject({
        method: 'GET',
        url: '/v1/api/probe/organizations/1',
        headers: { 'api-key': world.ctx.apiKey, authorization: `Bearer ${token}` },
      });
    expect((await call()).statusCode).toBe(200);
    await upsertPass(world.ctx, world.events, { ...pass, deleted: true, version: 2 });
    const refused = await call();
    expect(refused.statusCode).toBe(401);
    expect(refused.json().errors[0].code).toBe('TOKEN_REVOKED');
  });
});
