import { createPrivateKey, generateKeyPairSync, randomUUID } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { jwkThumbprint } from '@wp/security';
import { decodeJwt, SignJWT, UnsecuredJWT } from 'jose';
import { startAuthTestApp, type AuthTestContext } from '../support/auth-test-app.js';
import { UUID, login, registerActive, tokensOf } from '../support/flows.js';
import { startProbeApp } from '../support/probe-app.js';

/**
 * docs/api.md § Accounts and sessions (`GET /oauth/token/revoke`, `GET /oauth/token/info`) and
 * docs/api.md § Authentication 2, 3, 6; docs/architecture.md § Identity and access ("Revocation"):
 * a revoked token is refused by every service.
 */
describe('auth: logout (revoke), token info and the token rules, across services', () => {
  let ctx: AuthTestContext;
  let probe: NestFastifyApplication;

  beforeAll(async () => {
    ctx = await startAuthTestApp({ AUTH_EMAIL_ACTIVATION_REQUIRED: 'false' });
    probe = await startProbeApp(ctx.env);
  });
  afterAll(async () => {
    await probe.close();
    await ctx.close();
  });

  const info = (token: string) => ctx.get('/v1/api/oauth/token/info', ctx.bearer(token));
  const revoke = (token: string) => ctx.get('/v1/api/oauth/token/revoke', ctx.bearer(token));
  const elsewhere = (authorization?: string) =>
    probe.inject({
      method: 'GET',
      url: '/v1/api/probe/whoami',
      headers: {
        'api-key': ctx.apiKey,
        ...(authorization === undefined ? {} : { authorization }),
      },
    });

  /**
   * A token signed with the platform's key (its `kid`, header `typ: at+jwt`) but any claims
   * (expired ones, for instance).
   */
  function sign(
    claims: Record<string, unknown>,
    key = ctx.env.keys.jwtPrivateKey,
    header: Record<string, unknown> = {},
  ): Promise<string> {
    const privateKey = createPrivateKey(key);
    return new SignJWT(claims)
      .setProtectedHeader({
        alg: 'ES256',
        typ: 'at+jwt',
        kid: jwkThumbprint(privateKey),
        ...header,
      })
      .sign(privateKey);
  }
  /** The claims auth issues, for a user of its own. */
  const issued = () => ({
    sub: randomUUID(),
    jti: randomUUID(),
    sid: randomUUID(),
    typ: 'user',
    app: 'app',
    client_id: 'app',
    email: null,
    iss: 'workspace-platform',
    aud: 'workspace-platform-api',
    iat: now(),
    exp: now() + 600,
  });
  const now = () => Math.floor(Date.now() / 1000);

  it('token info answers 200 with the documented claims of the token', async () => {
    const session = await registerActive(ctx);
    const res = await info(session.accessToken);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(
      [
        'active',
        'token_type',
        'expires_in',
        'sub',
        'jti',
        'sid',
        'typ',
        'app',
        'client_id',
        'email',
        'iss',
        'aud',
        'iat',
        'exp',
      ].sort(),
    );
    expect(body).toMatchObject({
      active: true,
      token_type: 'access_token',
      sub: session.userId,
      typ: 'user',
      email: session.email,
      iss: 'workspace-platform',
      aud: 'workspace-platform-api',
      jti: expect.stringMatching(UUID),
      sid: expect.stringMatching(UUID),
      app: expect.stringMatching(UUID),
    });
    expect(body.client_id).toBe(body.app);
    expect(body.exp - body.iat).toBe(900);
    expect(body.expires_in).toBeGreaterThan(890);
    expect(body.expires_in).toBeLessThanOrEqual(900);
  });

  it('the other service accepts the token before logout', async () => {
    const session = await registerActive(ctx);
    const res = await elsewhere(`Bearer ${session.accessToken}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().id).toBe(session.userId);
  });

  it('revoke answers 200, then auth and another service refuse the token (401 TOKEN_REVOKED)', async () => {
    const session = await registerActive(ctx);
    expect((await elsewhere(`Bearer ${session.accessToken}`)).statusCode).toBe(200); // cached as verified
    const res = await revoke(session.accessToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ revoked: true });
    const there = await elsewhere(`Bearer ${session.accessToken}`);
    expect(there.statusCode).toBe(401);
    expect(there.json().errors[0].code).toBe('TOKEN_REVOKED');
    const here = await info(session.accessToken);
    expect(here.statusCode).toBe(401);
    expect(here.json().errors[0].code).toBe('TOKEN_REVOKED');
    const again = await revoke(session.accessToken);
    expect(again.statusCode).toBe(401);
  });

  it('revoke ends the refresh token family: its refresh token is refused', async () => {
    const session = await registerActive(ctx);
    expect((await revoke(session.accessToken)).statusCode).toBe(200);
    const res = await ctx.post('/v1/api/oauth/token/refresh', {
      refresh_token: session.refreshToken,
    });
    expect(res.statusCode).toBe(401);
    const [row] = await ctx.db.query<{ revoked_reason: string }[]>(
      'SELECT revoked_reason FROM refresh_token_family WHERE id = $1',
      [decodeJwt(session.accessToken).sid],
    );
    expect(row.revoked_reason).toBe('logout');
  });

  it('revoke leaves the same user’s other sessions alone', async () => {
    const session = await registerActive(ctx);
    const other = await login(ctx, session.email, session.password);
    expect((await revoke(session.accessToken)).statusCode).toBe(200);
    expect((await info(other.accessToken)).statusCode).toBe(200);
    expect((await elsewhere(`Bearer ${other.accessToken}`)).statusCode).toBe(200);
    const refreshed = await ctx.post('/v1/api/oauth/token/refresh', {
      refresh_token: other.refreshToken,
    });
    expect(refreshed.statusCode).toBe(200);
    expect(tokensOf(refreshed.json()).userId).toBe(session.userId);
  });

  it('revoke and info answer 401 TOKEN_EXPIRED for an already expired token', async () => {
    const expired = await sign({ ...issued(), iat: now() - 1000, exp: now() - 100 });
    for (const res of [
      await revoke(expired),
      await info(expired),
      await elsewhere(`Bearer ${expired}`),
    ]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().errors[0].code).toBe('TOKEN_EXPIRED');
    }
  });

  it('rejects tokens with characters outside [A-Za-z0-9._-] as TOKEN_MALFORMED, in every service', async () => {
    const session = await registerActive(ctx);
    const valid = session.accessToken;
    const corrupted = [
      `${valid}$`,
      `${valid.slice(0, 20)}%2E${valid.slice(20)}`,
      `${valid.slice(0, 10)}+${valid.slice(11)}`,
      valid.replace(/\./, '/'),
      `${valid}=`,
      `tökén.${valid}`,
    ];
    for (const token of corrupted) {
      for (const res of [await info(token), await elsewhere(`Bearer ${token}`)]) {
        expect(res.statusCode).toBe(401);
        expect(res.json().errors[0].code).toBe('TOKEN_MALFORMED');
      }
    }
    const spaced = await elsewhere(`Bearer ${valid.slice(0, 10)} ${valid.slice(10)}`);
    expect(spaced.statusCode).toBe(401);
    expect(spaced.json().errors[0].code).toBe('TOKEN_MALFORMED');
  });

  it('rejects a missing header, a non-Bearer scheme and well-formed but invalid tokens', async () => {
    const missing = await ctx.get('/v1/api/oauth/token/info');
    expect(missing.statusCode).toBe(401);
    expect(missing.json().errors[0].code).toBe('TOKEN_MISSING');
    const basic = await elsewhere('Basic dXNlcjpwYXNz');
    expect(basic.statusCode).toBe(401);
    const claims = issued();
    const foreignKey = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const invalid = [
      'not.a.jwt',
      await sign(claims, foreignKey),
      await sign({ ...claims, iss: 'someone-else' }),
      await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
        .sign(new TextEncoder().encode('a shared secret of thirty-two bytes')),
      new UnsecuredJWT(claims).encode().replace(/\.$/, ''),
    ];
    for (const token of invalid) {
      for (const res of [await info(token), await elsewhere(`Bearer ${token}`)]) {
        expect(res.statusCode).toBe(401);
        expect(res.json().errors[0].code).toMatch(/^TOKEN_(INVALID|MALFORMED)$/);
      }
    }
  });

  it('refuses, in every service, a token signed with the real key but not as auth issues them (RFC 9068)', async () => {
    const { exp: _exp, ...noExp } = issued();
    const { aud: _aud, ...noAud } = issued();
    const forged = {
      'no exp': await sign(noExp),
      'a ten-year exp': await sign({ ...issued(), exp: now() + 10 * 365 * 86400 }),
      'no aud': await sign(noAud),
      'another aud': await sign({ ...issued(), aud: 'another-api' }),
      'header typ JWT': await sign(issued(), undefined, { typ: 'JWT' }),
    };
    expect((await info(await sign(issued()))).statusCode).toBe(200); // as issued: accepted
    for (const [what, token] of Object.entries(forged)) {
      for (const res of [await info(token), await elsewhere(`Bearer ${token}`)]) {
        expect([what, res.statusCode, res.json().errors[0].code]).toEqual([
          what,
          401,
          'TOKEN_INVALID',
        ]);
      }
    }
  });

  it('issues RFC 9068 access tokens: typ at+jwt, kid, aud, client_id, jti, and a lifetime within the maximum', async () => {
    const session = await registerActive(ctx);
    const [header] = session.accessToken.split('.');
    expect(JSON.parse(Buffer.from(header, 'base64url').toString('utf8'))).toEqual({
      alg: 'ES256',
      typ: 'at+jwt',
      kid: jwkThumbprint(createPrivateKey(ctx.env.keys.jwtPrivateKey)),
    });
    const claims = decodeJwt(session.accessToken);
    expect(claims).toMatchObject({
      aud: 'workspace-platform-api',
      client_id: claims.app,
      jti: expect.stringMatching(UUID),
    });
    expect(claims.exp! - claims.iat!).toBe(900);
  });
});
