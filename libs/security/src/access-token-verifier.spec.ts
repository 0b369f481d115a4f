import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { SignJWT, type JWTPayload } from 'jose';
import { AccessTokenVerifier } from './access-token-verifier.js';
import { jwkThumbprint, parsePublicKeys } from './jwt-keys.js';

const pair = () => generateKeyPairSync('ec', { namedCurve: 'P-256' });
const real = pair();
const other = pair();
const pem = (key: KeyObject) => key.export({ type: 'spki', format: 'pem' }).toString();
const kid = jwkThumbprint(real.publicKey);

const verifier = new AccessTokenVerifier({
  keys: parsePublicKeys(pem(real.publicKey)),
  issuer: 'workspace-platform',
  audience: 'workspace-platform-api',
  maxLifetimeSeconds: 3600,
});

const now = () => Math.floor(Date.now() / 1000);
/** What auth issues: RFC 9068 header and claims, 15 minutes. */
const issued = (): JWTPayload => ({
  iss: 'workspace-platform',
  aud: 'workspace-platform-api',
  sub: 'user-1',
  client_id: 'app-1',
  app: 'app-1',
  jti: 'jti-1',
  sid: 'sid-1',
  typ: 'user',
  email: null,
  iat: now(),
  exp: now() + 900,
});

/** Signed with the real key (or `key`), header `typ: at+jwt` and `kid` unless overridden. */
function sign(
  payload: JWTPayload,
  header: Record<string, unknown> = {},
  key: KeyObject = real.privateKey,
): Promise<string> {
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid, ...header })
    .sign(key);
}

async function codeOf(token: string): Promise<string> {
  try {
    await verifier.verify(token);
    return 'accepted';
  } catch (error) {
    return (error as { code: string }).code;
  }
}

const without = (claim: string): JWTPayload => {
  const payload = issued();
  delete payload[claim];
  return payload;
};

describe('AccessTokenVerifier (RFC 9068 resource server)', () => {
  it('accepts what auth issues and returns its claims', async () => {
    await expect(verifier.verify(await sign(issued()))).resolves.toMatchObject({
      sub: 'user-1',
      client_id: 'app-1',
      aud: 'workspace-platform-api',
    });
  });

  it('refuses a token signed with the real key but without exp, without aud or with another aud', async () => {
    expect(await codeOf(await sign(without('exp')))).toBe('TOKEN_INVALID');
    expect(await codeOf(await sign(without('aud')))).toBe('TOKEN_INVALID');
    expect(await codeOf(await sign({ ...issued(), aud: 'another-api' }))).toBe('TOKEN_INVALID');
    expect(await codeOf(await sign({ ...issued(), aud: ['another-api'] }))).toBe('TOKEN_INVALID');
  });

  it('refuses a lifetime beyond the maximum: a ten-year exp, or an iat far back', async () => {
    expect(await codeOf(await sign({ ...issued(), exp: now() + 10 * 365 * 86400 }))).toBe(
      'TOKEN_INVALID',
    );
    expect(await codeOf(await sign({ ...issued(), iat: now() - 7200 }))).toBe('TOKEN_INVALID');
    expect(await codeOf(await sign(without('iat')))).toBe('TOKEN_INVALID');
    expect(await codeOf(await sign({ ...issued(), iat: now() + 600 }))).toBe('TOKEN_INVALID');
  });

  it('refuses a header typ other than at+jwt, another algorithm or key, an unknown kid', async () => {
    expect(await codeOf(await sign(issued(), { typ: 'JWT' }))).toBe('TOKEN_INVALID');
    expect(await codeOf(await sign(issued(), { typ: undefined }))).toBe('TOKEN_INVALID');
    expect(await codeOf(await sign(issued(), {}, other.privateKey))).toBe('TOKEN_INVALID');
    expect(await codeOf(await sign(issued(), { kid: 'unknown' }))).toBe('TOKEN_INVALID');
    const hs256 = await new SignJWT(issued())
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid })
      .sign(new TextEncoder().encode('a shared secret of thirty-two bytes'));
    expect(await codeOf(hs256)).toBe('TOKEN_INVALID');
  });

  it('refuses a token missing a claim the services read, or with the wrong type', async () => {
    for (const claim of ['sub', 'client_id', 'jti', 'sid', 'typ', 'iss']) {
      expect([claim, await codeOf(await sign(without(claim)))]).toEqual([claim, 'TOKEN_INVALID']);
    }
    expect(await codeOf(await sign({ ...issued(), typ: 'admin' }))).toBe('TOKEN_INVALID');
    expect(await codeOf(await sign({ ...issued(), iss: 'someone-else' }))).toBe('TOKEN_INVALID');
  });

  it('says TOKEN_EXPIRED for a token past its exp', async () => {
    const old = { ...issued(), iat: now() - 1000, exp: now() - 100 };
    expect(await codeOf(await sign(old))).toBe('TOKEN_EXPIRED');
  });
});
