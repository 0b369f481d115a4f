import { randomUUID } from 'node:crypto';
import { TxHost } from '@wp/persistence';
import { agentSessionId, RevocationList } from '@wp/security';
import { agentExchangeHelpers, useAgentExchangeWorld } from '../support/agent-exchange.js';
import { newKey, upsertPass } from '../support/sentinel.js';

/**
 * docs/architecture.md § Sentinel Pass key: agents exchange a pass id and key for an agent access
 * token at `POST /oauth/token` (client_credentials): the refusals — wrong key and unknown pass (one
 * 401 body), revoked, expired, rotated-away and deleted passes, older versions redelivered late,
 * allowed referer patterns, an epoch org has deny-listed — each refusal of a known pass
 * recorded as `error`.
 */
describe('auth: Sentinel Pass agent token exchange and activity recording', () => {
  const world = useAgentExchangeWorld();

  const { exchange, logsOf } = agentExchangeHelpers(world);

  it('refuses a wrong key and an unknown pass id with the same 401 INVALID_CLIENT body, and records the refusal of the known pass as error', async () => {
    const pass = await upsertPass(world.ctx, world.events, {});
    const wrong = await exchange(pass.passId, newKey());
    const unknown = await exchange(randomUUID(), pass.key);
    const notUuid = await exchange('not-a-pass', pass.key);
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().errors[0].code).toBe('INVALID_CLIENT');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.body).toBe(wrong.body);
    expect(notUuid.body).toBe(wrong.body);
    const entries = await logsOf(pass.passId, (e) => e.length === 1);
    expect(entries[0]).toMatchObject({
      activity_type: 'error',
      status_code: 401,
      success: false,
      error_message: 'invalid key',
    });
  });

  it('refuses a revoked pass, accepts it again once activated, and ignores an older version redelivered later', async () => {
    const pass = await upsertPass(world.ctx, world.events, {});
    await upsertPass(world.ctx, world.events, { ...pass, active: false, version: 2 });
    expect((await exchange(pass.passId, pass.key)).statusCode).toBe(401);
    await upsertPass(world.ctx, world.events, { ...pass, active: true, version: 3 });
    expect((await exchange(pass.passId, pass.key)).statusCode).toBe(200);
    // A stale revocation (version 2) arriving late changes nothing.
    await world.events.publish('org.sentinel_pass.changed', {
      passId: pass.passId,
      organizationId: 1,
      projectId: 10,
      title: 'agent',
      active: false,
      deleted: false,
      keyHash: null,
      expiresAt: null,
      allowedReferers: [],
      scopes: [],
      permissions: [],
      version: 2,
    });
    await upsertPass(world.ctx, world.events, {}); // a later event processed after the stale one
    expect((await exchange(pass.passId, pass.key)).statusCode).toBe(200);
    const entries = await logsOf(pass.passId, (e) => e.length === 3);
    expect(entries.map((e) => e.error_message).sort()).toEqual([null, null, 'pass revoked'].sort());
  });

  it('refuses an expired pass with 401 INVALID_CLIENT', async () => {
    const pass = await upsertPass(world.ctx, world.events, {
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });
    const res = await exchange(pass.passId, pass.key);
    expect(res.statusCode).toBe(401);
    expect(res.json().errors[0].code).toBe('INVALID_CLIENT');
    const entries = await logsOf(pass.passId, (e) => e.length === 1);
    expect(entries[0].error_message).toBe('pass expired');
  });

  it('refuses the rotated-away key and accepts the new one', async () => {
    const pass = await upsertPass(world.ctx, world.events, {});
    const rotated = await upsertPass(world.ctx, world.events, { passId: pass.passId, version: 2 });
    expect((await exchange(pass.passId, pass.key)).statusCode).toBe(401);
    expect((await exchange(pass.passId, rotated.key)).statusCode).toBe(200);
  });

  it('refuses a deleted pass with 401 and hides its logs (404)', async () => {
    const pass = await upsertPass(world.ctx, world.events, {});
    await upsertPass(world.ctx, world.events, { ...pass, deleted: true, version: 2 });
    const res = await exchange(pass.passId, pass.key);
    expect(res.statusCode).toBe(401);
    expect(res.json().errors[0].code).toBe('INVALID_CLIENT');
    const logs = await world.ctx.get(
      `/v1/api/oauth/agent/activity/logs?agent_user_id=${pass.passId}`,
      world.ctx.bearer(world.member.accessToken),
    );
    expect(logs.statusCode).toBe(404);
  });

  it('checks Referer or Origin against allowed referer patterns (403 REFERER_NOT_ALLOWED), only after the key', async () => {
    const pass = await upsertPass(world.ctx, world.events, {
      allowedReferers: ['*.example.com', 'https://app.test.dev'],
    });
    const status = async (headers: Record<string, string>) =>
      (await exchange(pass.passId, pass.key, headers)).statusCode;
    expect(await status({})).toBe(403);
    expect(await status({ referer: 'https://a.example.com/page' })).toBe(200);
    expect(await status({ referer: 'http://deep.a.example.com' })).toBe(200);
    expect(await status({ referer: 'https://example.com/' })).toBe(403);
    expect(await status({ referer: 'https://evil-example.com/' })).toBe(403);
    expect(await status({ origin: 'https://app.test.dev' })).toBe(200);
    expect(await status({ origin: 'http://app.test.dev' })).toBe(403);
    const forbidden = await exchange(pass.passId, pass.key, { referer: 'https://other.org' });
    expect(forbidden.json().errors[0].code).toBe('REFERER_NOT_ALLOWED');
    // A wrong key is INVALID_CLIENT even from a wrong referer: nothing about the pass leaks.
    const wrongKey = await exchange(pass.passId, newKey(), { referer: 'https://other.org' });
    expect(wrongKey.statusCode).toBe(401);
  });

  it('refuses the key with 401 INVALID_CLIENT while org has deny-listed its current epoch, before the event arrives', async () => {
    const pass = await upsertPass(world.ctx, world.events, {});
    expect((await exchange(pass.passId, pass.key)).statusCode).toBe(200);
    // what org's revoke does before answering (docs/org.md § Sentinel Pass)
    await world.ctx.app
      .get(TxHost)
      .withTransaction(() =>
        world.ctx.app.get(RevocationList).revokeSession(agentSessionId(pass.passId, 0), 60),
      );
    const refused = await exchange(pass.passId, pass.key);
    expect([refused.statusCode, refused.json().errors[0].code]).toEqual([401, 'INVALID_CLIENT']);
    // the event of that revoke and a re-activation: the next epoch exchanges again
    await upsertPass(world.ctx, world.events, {
      ...pass,
      active: false,
      version: 2,
      credentialEpoch: 1,
    });
    await upsertPass(world.ctx, world.events, {
      ...pass,
      active: true,
      version: 3,
      credentialEpoch: 1,
    });
    expect((await exchange(pass.passId, pass.key)).statusCode).toBe(200);
  });
});
