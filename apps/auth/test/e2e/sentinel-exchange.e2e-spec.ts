import { randomUUID } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { agentSessionId, RevocationList } from '@wp/security';
import { waitFor } from '@wp/testing';
import jwt from 'jsonwebtoken';
import { startAuthTestApp, type AuthTestContext } from '../support/auth-test-app.js';
import { registerActive } from '../support/flows.js';
import {
  EventPublisher,
  newKey,
  setMembership,
  startAgentProbeApp,
  upsertPass,
} from '../support/sentinel.js';

interface LogEntry {
  activity_type: string;
  endpoint: string;
  method: string;
  status_code: number;
  success: boolean;
  service: string;
  latency_ms: number;
  error_message: string | null;
  client_address: string | null;
}

/**
 * docs/architecture.md § Sentinel Pass key: agents exchange a pass id and key for an agent access
 * token at `POST /oauth/token` (client_credentials); every exchange, refusal and agent call of
 * any service is recorded and readable by members of the pass's project only.
 */
describe('auth: Sentinel Pass agent token exchange and activity recording', () => {
  let ctx: AuthTestContext;
  let probe: NestFastifyApplication;
  let events: EventPublisher;
  let member: { userId: string; accessToken: string };

  beforeAll(async () => {
    ctx = await startAuthTestApp({ AUTH_EMAIL_ACTIVATION_REQUIRED: 'false' });
    probe = await startAgentProbeApp(ctx);
    events = await EventPublisher.connect(ctx);
    member = await registerActive(ctx);
    await setMembership(ctx, events, {
      userId: member.userId,
      organizationId: 1,
      projectId: null,
      role: 'MEMBER',
    });
    await setMembership(ctx, events, {
      userId: member.userId,
      organizationId: 1,
      projectId: 10,
      role: 'MEMBER',
    });
  });
  afterAll(async () => {
    await events.close();
    await probe.close();
    await ctx.close();
  });

  const exchange = (clientId: string, clientSecret: string, headers: Record<string, string> = {}) =>
    ctx.post(
      '/v1/api/oauth/token',
      { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret },
      headers,
    );

  /** The pass's log entries as its project member reads them, once `predicate` holds. */
  async function logsOf(
    passId: string,
    predicate: (e: LogEntry[]) => boolean,
  ): Promise<LogEntry[]> {
    return waitFor(
      async () => {
        const res = await ctx.get(
          `/v1/api/oauth/agent/activity/logs?agent_user_id=${passId}&per_page=100`,
          ctx.bearer(member.accessToken),
        );
        if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
        const entries = res.json<{ data: LogEntry[] }>().data;
        return predicate(entries) ? entries : undefined;
      },
      { timeoutMs: 10_000, what: `activity of ${passId}` },
    );
  }

  it('speaks RFC 6749 too: form-urlencoded body, HTTP Basic client credentials, access_token fields', async () => {
    const pass = await upsertPass(ctx, events, { permissions: ['projects:read'] });
    const form = await ctx.post(
      '/v1/api/oauth/token',
      new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: pass.passId,
        client_secret: pass.key,
      }).toString(),
      { 'content-type': 'application/x-www-form-urlencoded' },
    );
    expect(form.statusCode).toBe(200);
    const body = form.json();
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 900 });
    expect(body.access_token).toBe(body.data.attributes.accessToken);

    const basic = Buffer.from(
      `${encodeURIComponent(pass.passId)}:${encodeURIComponent(pass.key)}`,
    ).toString('base64');
    const viaHeader = await ctx.post('/v1/api/oauth/token', 'grant_type=client_credentials', {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${basic}`,
    });
    expect(viaHeader.statusCode).toBe(200);
    expect(viaHeader.json().data.id).toBe(pass.passId);

    const wrong = Buffer.from(`${pass.passId}:sp_wrong`).toString('base64');
    const refused = await ctx.post(
      '/v1/api/oauth/token',
      { grant_type: 'client_credentials' },
      { authorization: `Basic ${wrong}` },
    );
    expect(refused.statusCode).toBe(401);
    expect(refused.json().errors[0].code).toBe('INVALID_CLIENT');

    const both = await ctx.post(
      '/v1/api/oauth/token',
      { grant_type: 'client_credentials', client_id: pass.passId, client_secret: pass.key },
      { authorization: `Basic ${basic}` },
    );
    expect(both.statusCode).toBe(400);

    const passwordForm = await ctx.post(
      '/v1/api/oauth/token',
      'username=nobody%40example.com&password=wrong-password',
      { 'content-type': 'application/x-www-form-urlencoded' },
    );
    expect(passwordForm.statusCode).toBe(401);
    expect(passwordForm.json().errors[0].code).toBe('INVALID_CREDENTIALS');
  });

  it('exchanges a valid pass id and key for an agent access token with the pass claims and no refresh token', async () => {
    const pass = await upsertPass(ctx, events, {
      scopes: ['org:read'],
      // prm: what the pass grants — `read` expanded, the unknown `projects.read` dropped
      permissions: ['projects.read', 'read', 'wallets:debit'],
    });
    const res = await exchange(pass.passId, pass.key);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data).toMatchObject({ id: pass.passId, type: 'session' });
    expect(body.data.attributes).toMatchObject({ tokenType: 'Bearer', expiresIn: 900 });
    expect(body.data.attributes.refreshToken).toBeUndefined();
    const claims = jwt.verify(body.data.attributes.accessToken, ctx.env.keys.jwtPublicKey, {
      algorithms: ['ES256'],
    }) as Record<string, unknown>;
    expect(claims).toMatchObject({
      typ: 'agent',
      sub: pass.passId,
      org: 1,
      prj: 10,
      scp: ['org:read'],
      prm: ['projects:read', 'sentinel_passes:read', 'wallets:read', 'wallets:debit'],
      email: null,
    });
    const entries = await logsOf(pass.passId, (e) => e.length === 1);
    expect(entries[0]).toMatchObject({
      activity_type: 'token_generation',
      endpoint: '/v1/api/oauth/token',
      method: 'POST',
      status_code: 200,
      success: true,
      service: 'auth',
    });
  });

  it('refuses a wrong key and an unknown pass id with the same 401 INVALID_CLIENT body, and records the refusal of the known pass as error', async () => {
    const pass = await upsertPass(ctx, events, {});
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
    const pass = await upsertPass(ctx, events, {});
    await upsertPass(ctx, events, { ...pass, active: false, version: 2 });
    expect((await exchange(pass.passId, pass.key)).statusCode).toBe(401);
    await upsertPass(ctx, events, { ...pass, active: true, version: 3 });
    expect((await exchange(pass.passId, pass.key)).statusCode).toBe(200);
    // A stale revocation (version 2) arriving late changes nothing.
    await events.publish('org.sentinel_pass.changed', {
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
    await upsertPass(ctx, events, {}); // a later event processed after the stale one
    expect((await exchange(pass.passId, pass.key)).statusCode).toBe(200);
    const entries = await logsOf(pass.passId, (e) => e.length === 3);
    expect(entries.map((e) => e.error_message).sort()).toEqual([null, null, 'pass revoked'].sort());
  });

  it('refuses an expired pass with 401 INVALID_CLIENT', async () => {
    const pass = await upsertPass(ctx, events, {
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });
    const res = await exchange(pass.passId, pass.key);
    expect(res.statusCode).toBe(401);
    expect(res.json().errors[0].code).toBe('INVALID_CLIENT');
    const entries = await logsOf(pass.passId, (e) => e.length === 1);
    expect(entries[0].error_message).toBe('pass expired');
  });

  it('refuses the rotated-away key and accepts the new one', async () => {
    const pass = await upsertPass(ctx, events, {});
    const rotated = await upsertPass(ctx, events, { passId: pass.passId, version: 2 });
    expect((await exchange(pass.passId, pass.key)).statusCode).toBe(401);
    expect((await exchange(pass.passId, rotated.key)).statusCode).toBe(200);
  });

  it('refuses a deleted pass with 401 and hides its logs (404)', async () => {
    const pass = await upsertPass(ctx, events, {});
    await upsertPass(ctx, events, { ...pass, deleted: true, version: 2 });
    const res = await exchange(pass.passId, pass.key);
    expect(res.statusCode).toBe(401);
    expect(res.json().errors[0].code).toBe('INVALID_CLIENT');
    const logs = await ctx.get(
      `/v1/api/oauth/agent/activity/logs?agent_user_id=${pass.passId}`,
      ctx.bearer(member.accessToken),
    );
    expect(logs.statusCode).toBe(404);
  });

  it('checks Referer or Origin against allowed referer patterns (403 REFERER_NOT_ALLOWED), only after the key', async () => {
    const pass = await upsertPass(ctx, events, {
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

  it('records agent calls to another service built on PlatformModule as api_request and error with the route template, and counts usage', async () => {
    const pass = await upsertPass(ctx, events, {});
    const token = (await exchange(pass.passId, pass.key)).json().data.attributes.accessToken;
    const call = (id: string) =>
      probe.inject({
        method: 'GET',
        url: `/v1/api/probe/organizations/${id}?x=1`,
        headers: { 'api-key': ctx.apiKey, authorization: `Bearer ${token}` },
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
    const [row] = await ctx.db.query<{ usage_count: string }[]>(
      'SELECT usage_count FROM sentinel_pass WHERE id = $1',
      [pass.passId],
    );
    expect(Number(row.usage_count)).toBe(1);
  });

  it('makes every service refuse agent tokens issued before a revocation or key rotation, but not tokens issued after', async () => {
    const pass = await upsertPass(ctx, events, {});
    const tokenOf = async (key: string) =>
      (await exchange(pass.passId, key)).json().data.attributes.accessToken as string;
    const call = (token: string) =>
      probe.inject({
        method: 'GET',
        url: '/v1/api/probe/organizations/1',
        headers: { 'api-key': ctx.apiKey, authorization: `Bearer ${token}` },
      });
    const before = await tokenOf(pass.key);
    expect((await call(before)).statusCode).toBe(200);
    await upsertPass(ctx, events, { ...pass, active: false, version: 2 });
    const refused = await call(before);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().errors[0].code).toBe('TOKEN_REVOKED');

    await upsertPass(ctx, events, { ...pass, active: true, version: 3 });
    const reactivated = await tokenOf(pass.key);
    expect((await call(reactivated)).statusCode).toBe(200);
    expect((await call(before)).statusCode).toBe(401);

    const rotated = await upsertPass(ctx, events, { passId: pass.passId, version: 4 });
    expect((await call(reactivated)).statusCode).toBe(401);
    expect((await call(await tokenOf(rotated.key))).statusCode).toBe(200);
  });

  it('takes org’s credential epoch when it is ahead (a missed event): older tokens are refused, new ones carry that epoch', async () => {
    const pass = await upsertPass(ctx, events, { credentialEpoch: 0 });
    const tokenOf = async () =>
      (await exchange(pass.passId, pass.key)).json().data.attributes.accessToken as string;
    const sidOf = (token: string) => (jwt.decode(token) as { sid: string }).sid;
    const call = (token: string) =>
      probe.inject({
        method: 'GET',
        url: '/v1/api/probe/organizations/1',
        headers: { 'api-key': ctx.apiKey, authorization: `Bearer ${token}` },
      });
    const before = await tokenOf();
    expect(sidOf(before)).toBe(agentSessionId(pass.passId, 0));
    // auth never saw version 2 (a revoke org counted as the end of epoch 0), only version 3
    await upsertPass(ctx, events, { ...pass, version: 3, credentialEpoch: 1 });
    expect((await call(before)).json().errors?.[0]?.code).toBe('TOKEN_REVOKED');
    const after = await tokenOf();
    expect(sidOf(after)).toBe(agentSessionId(pass.passId, 1));
    expect((await call(after)).statusCode).toBe(200);
    // an event carrying a lower epoch (published before org counted) never lowers it
    await upsertPass(ctx, events, { ...pass, version: 4, credentialEpoch: 0 });
    expect(sidOf(await tokenOf())).toBe(agentSessionId(pass.passId, 1));
  });

  it('refuses the key with 401 INVALID_CLIENT while org has deny-listed its current epoch, before the event arrives', async () => {
    const pass = await upsertPass(ctx, events, {});
    expect((await exchange(pass.passId, pass.key)).statusCode).toBe(200);
    // what org's revoke does before answering (docs/org.md § Sentinel Pass)
    await ctx.app.get(RevocationList).revokeSession(agentSessionId(pass.passId, 0), 60);
    const refused = await exchange(pass.passId, pass.key);
    expect([refused.statusCode, refused.json().errors[0].code]).toEqual([401, 'INVALID_CLIENT']);
    // the event of that revoke and a re-activation: the next epoch exchanges again
    await upsertPass(ctx, events, { ...pass, active: false, version: 2, credentialEpoch: 1 });
    await upsertPass(ctx, events, { ...pass, active: true, version: 3, credentialEpoch: 1 });
    expect((await exchange(pass.passId, pass.key)).statusCode).toBe(200);
  });

  it('makes every service refuse agent tokens issued before the pass was deleted', async () => {
    const pass = await upsertPass(ctx, events, {});
    const token = (await exchange(pass.passId, pass.key)).json().data.attributes
      .accessToken as string;
    const call = () =>
      probe.inject({
        method: 'GET',
        url: '/v1/api/probe/organizations/1',
        headers: { 'api-key': ctx.apiKey, authorization: `Bearer ${token}` },
      });
    expect((await call()).statusCode).toBe(200);
    await upsertPass(ctx, events, { ...pass, deleted: true, version: 2 });
    const refused = await call();
    expect(refused.statusCode).toBe(401);
    expect(refused.json().errors[0].code).toBe('TOKEN_REVOKED');
  });

  it('caps an agent token at the expiry of its pass: exp = min(now + lifetime, expiresAt)', async () => {
    const expiresAt = new Date(Date.now() + 120_000);
    const soon = await upsertPass(ctx, events, { expiresAt: expiresAt.toISOString() });
    const res = await exchange(soon.passId, soon.key);
    expect(res.statusCode).toBe(200);
    const attributes = res.json().data.attributes;
    const claims = jwt.decode(attributes.accessToken) as { iat: number; exp: number };
    expect(claims.exp).toBe(Math.floor(expiresAt.getTime() / 1000));
    expect(attributes.expiresIn).toBe(claims.exp - claims.iat);
    expect(attributes.expiresIn).toBeGreaterThan(100);
    expect(attributes.expiresIn).toBeLessThanOrEqual(120);

    const later = await upsertPass(ctx, events, {
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    const normal = (await exchange(later.passId, later.key)).json().data.attributes;
    const normalClaims = jwt.decode(normal.accessToken) as { iat: number; exp: number };
    expect(normal.expiresIn).toBe(900);
    expect(normalClaims.exp - normalClaims.iat).toBe(900);
  });

  it('does not record calls made with user tokens', async () => {
    const res = await probe.inject({
      method: 'GET',
      url: '/v1/api/probe/organizations/1',
      headers: { 'api-key': ctx.apiKey, authorization: `Bearer ${member.accessToken}` },
    });
    expect(res.statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 1500)); // > the flush periods of both services
    const rows = await ctx.db.query<{ n: string }[]>(
      'SELECT count(*) AS n FROM agent_activity WHERE agent_user_id = $1',
      [member.userId],
    );
    expect(rows[0].n).toBe('0');
  });

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
