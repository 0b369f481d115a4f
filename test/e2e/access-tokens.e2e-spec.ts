import { createPrivateKey } from 'node:crypto';
import { jwkThumbprint } from '@wp/security';
import { decodeJwt, SignJWT, type JWTPayload } from 'jose';
import { PlatformStack } from '../support/stack.js';

/**
 * Access tokens are RFC 9068 JWTs and every service verifies them as such
 * (docs/architecture.md § Identity and access): a token signed with the platform's real key is
 * still refused — 401 `TOKEN_INVALID` on auth, org and wallet, through the gateway — when it has
 * no `exp`, a lifetime beyond `ACCESS_TOKEN_MAX_LIFETIME_SECONDS` (a ten-year `exp`), no `aud` or
 * another one, or a header `typ` other than `at+jwt`. Before, all of them were accepted.
 */
describe('access tokens as RFC 9068 resource servers see them', () => {
  let stack: PlatformStack;
  let issued: JWTPayload;

  beforeAll(async () => {
    stack = await PlatformStack.start();
    const user = await stack.request('POST', '/v1/api/users', {
      body: { username: `rfc9068-${Date.now()}@tokens.example.com`, password: 'a long password' },
    });
    expect(user.status).toBe(200);
    issued = decodeJwt(user.body.data.attributes.accessToken as string);
  });
  afterAll(() => stack?.close());

  /** A token with the platform's key and `kid`: what only the key holder could make. */
  function sign(payload: JWTPayload, header: Record<string, unknown> = {}): Promise<string> {
    const key = createPrivateKey(stack.env.keys.jwtPrivateKey);
    return new SignJWT(payload)
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: jwkThumbprint(key), ...header })
      .sign(key);
  }
  const now = () => Math.floor(Date.now() / 1000);
  const answers = (token: string) =>
    Promise.all([
      stack.request('GET', '/v1/api/oauth/token/info', { token }),
      stack.request('GET', '/v1/api/organizations', { token }),
      stack.request('GET', '/v1/api/wallets?entity_type=user', { token }),
    ]);

  it('issues at+jwt tokens with aud, client_id, jti and a 15-minute lifetime', () => {
    expect(issued).toMatchObject({
      aud: 'workspace-platform-api',
      client_id: issued.app,
      iss: 'workspace-platform',
    });
    expect(typeof issued.jti).toBe('string');
    expect(issued.exp! - issued.iat!).toBe(900);
  });

  it('refuses on every service a token signed with the real key but without exp, with a ten-year exp, without or with another aud, or typed JWT', async () => {
    const fresh = (): JWTPayload => ({ ...issued, jti: `${issued.jti}-x`, iat: now() });
    const { exp: _exp, ...noExp } = fresh();
    const { aud: _aud, ...noAud } = fresh();
    const forged: Record<string, string> = {
      'no exp': await sign(noExp),
      'a ten-year exp': await sign({ ...fresh(), exp: now() + 10 * 365 * 86400 }),
      'no aud': await sign(noAud),
      'another aud': await sign({ ...fresh(), aud: 'another-resource-server' }),
      'header typ JWT': await sign(fresh(), { typ: 'JWT' }),
    };
    // The same signing with the issued claims is accepted: only the forged part is refused.
    const control = await answers(await sign({ ...fresh(), exp: now() + 600 }));
    expect(control.map((res) => res.status)).toEqual([200, 200, 200]);
    for (const [what, token] of Object.entries(forged)) {
      for (const res of await answers(token)) {
        expect([what, res.status, res.body.errors?.[0]?.code]).toEqual([
          what,
          401,
          'TOKEN_INVALID',
        ]);
      }
    }
  });
});
