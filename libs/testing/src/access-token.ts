import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';

/**
 * An access token as auth signs one (docs/architecture.md § Identity and access claims: `sub`,
 * `jti`, `sid`, `iat`, `exp`, `iss`, `typ`, `app`, `email`; ES256), for tests and benchmarks that
 * need a caller without running auth. Defaults: a user token (`typ` user, no email) of the `bench`
 * application, valid 6 h; `claims` override or add (e.g. agent `org`/`prj`/`prm`).
 * @param privateKey PEM of the environment's key (`TestEnvironment.keys.jwtPrivateKey`)
 */
export function signAccessToken(
  privateKey: string,
  sub: string,
  claims: Record<string, unknown> = {},
  ttlSeconds = 6 * 3600,
): string {
  const now = Math.floor(Date.now() / 1000);
  return jwt.sign(
    {
      sub,
      jti: randomUUID(),
      sid: randomUUID(),
      iat: now,
      exp: now + ttlSeconds,
      iss: 'workspace-platform',
      typ: 'user',
      app: 'bench',
      email: null,
      ...claims,
    },
    privateKey,
    { algorithm: 'ES256', noTimestamp: true },
  );
}
