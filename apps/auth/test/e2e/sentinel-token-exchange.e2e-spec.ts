import { createPublicKey } from 'node:crypto';
import { decodeJwt, jwtVerify } from 'jose';
import { agentExchangeHelpers, useAgentExchangeWorld } from '../support/agent-exchange.js';
import { upsertPass } from '../support/sentinel.js';

/**
 * docs/architecture.md § Sentinel Pass key: agents exchange a pass id and key for an agent access
 * token at `POST /oauth/token` (client_credentials): the RFC 6749 forms (form body, HTTP Basic),
 * the agent token's claims (no refresh token) and its expiry capped at the pass's; the exchange
 * recorded as `token_generation`.
 */
describe('auth: Sentinel Pass agent token exchange and activity recording', () => {
  const world = useAgentExchangeWorld();

  const { exchange, logsOf } = agentExchangeHelpers(world);

  it('speaks RFC 6749 too: form-urlencoded body, HTTP Basic client credentials, access_token fields', async () => {
    const pass = await upsertPass(world.ctx, world.events, { permissions: ['projects:read'] });
    const form = await world.ctx.post(
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
    const viaHeader = await world.ctx.post('/v1/api/oauth/token', 'grant_type=client_credentials', {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${basic}`,
    });
    expect(viaHeader.statusCode).toBe(200);
    expect(viaHeader.json().data.id).toBe(pass.passId);

    const wrong = Buffer.from(`${pass.passId}:sp_wrong`).toString('base64');
    const refused = await world.ctx.post(
      '/v1/api/oauth/token',
      { grant_type: 'client_credentials' },
      { authorization: `Basic ${wrong}` },
    );
    expect(refused.statusCode).toBe(401);
    expect(refused.json().errors[0].code).toBe('INVALID_CLIENT');

    const both = await world.ctx.post(
      '/v1/api/oauth/token',
      { grant_type: 'client_credentials', client_id: pass.passId, client_secret: pass.key },
      { authorization: `Basic ${basic}` },
    );
    expect(both.statusCode).toBe(400);

    const passwordForm = await world.ctx.post(
      '/v1/api/oauth/token',
      'username=nobody%40example.com&password=wrong-password',
      { 'content-type': 'application/x-www-form-urlencoded' },
    );
    expect(passwordForm.statusCode).toBe(401);
    expect(passwordForm.json().errors[0].code).toBe('INVALID_CREDENTIALS');
  });

  it('exchanges a valid pass id and key for an agent access token with the pass claims and no refresh token', async () => {
    const pass = await upsertPass(world.ctx, world.events, {
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
    const { payload: claims } = await jwtVerify(
      body.data.attributes.accessToken,
      createPublicKey(world.ctx.env.keys.jwtPublicKey),
      { algorithms: ['ES256'], typ: 'at+jwt', audience: 'workspace-platform-api' },
    );
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

  it('caps an agent token at the expiry of its pass: exp = min(now + lifetime, expiresAt)', async () => {
    const expiresAt = new Date(Date.now() + 120_000);
    const soon = await upsertPass(world.ctx, world.events, { expiresAt: expiresAt.toISOString() });
    const res = await exchange(soon.passId, soon.key);
    expect(res.statusCode).toBe(200);
    const attributes = res.json().data.attributes;
    const claims = decodeJwt(attributes.accessToken) as { iat: number; exp: number };
    expect(claims.exp).toBe(Math.floor(expiresAt.getTime() / 1000));
    expect(attributes.expiresIn).toBe(claims.exp - claims.iat);
    expect(attributes.expiresIn).toBeGreaterThan(100);
    expect(attributes.expiresIn).toBeLessThanOrEqual(120);

    const later = await upsertPass(world.ctx, world.events, {
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    const normal = (await exchange(later.passId, later.key)).json().data.attributes;
    const normalClaims = decodeJwt(normal.accessToken) as { iat: number; exp: number };
    expect(normal.expiresIn).toBe(900);
    expect(normalClaims.exp - normalClaims.iat).toBe(900);
  });
});
