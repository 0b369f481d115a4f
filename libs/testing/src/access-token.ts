import { createPrivateKey, randomUUID } from 'node:crypto';
import { ACCESS_TOKEN_TYPE, jwkThumbprint } from '@wp/security';
import { SignJWT } from 'jose';

/**
 * An access token as auth signs one (docs/architecture.md § Identity and access claims; RFC 9068:
 * header `typ: at+jwt` and `kid`; `iss`, `aud`, `sub`, `client_id`, `jti`, `iat`, `exp`, plus `sid`,
 * `typ`, `app`, `email`; ES256 with jose), for tests and benchmarks that need a caller without
 * running auth. Defaults: a user token (`typ` user, no email) of the `bench` application for the
 * default issuer and audience, valid 15 minutes (the longest the services accept is
 * `ACCESS_TOKEN_MAX_LIFETIME_SECONDS`, 1 h by default); `claims` override or add (e.g. agent
 * `org`/`prj`/`prm`).
 * @param privateKey PEM of the environment's key (`TestEnvironment.keys.jwtPrivateKey`)
 */
export function signAccessToken(
  privateKey: string,
  sub: string,
  claims: Record<string, unknown> = {},
  ttlSeconds = 900,
): Promise<string> {
  const key = createPrivateKey(privateKey);
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    iss: 'workspace-platform',
    aud: 'workspace-platform-api',
    sub,
    client_id: 'bench',
    jti: randomUUID(),
    sid: randomUUID(),
    iat: now,
    exp: now + ttlSeconds,
    typ: 'user',
    app: 'bench',
    email: null,
    ...claims,
  })
    .setProtectedHeader({ alg: 'ES256', typ: ACCESS_TOKEN_TYPE, kid: jwkThumbprint(key) })
    .sign(key);
}
