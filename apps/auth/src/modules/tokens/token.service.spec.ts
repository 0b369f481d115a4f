import { generateKeyPairSync } from 'node:crypto';
import { AccessTokenVerifier, parsePublicKeys } from '@wp/security';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import type { AuthConfig } from '../../config/auth.config';
import { TokenService } from './token.service';

describe('TokenService.signAccessToken', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const publicPem = publicKey.export({ format: 'pem', type: 'spki' }).toString();
  const config = {
    JWT_PRIVATE_KEY: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    JWT_PUBLIC_KEY: publicPem,
    JWT_ISSUER: 'https://auth.test',
    JWT_AUDIENCE: 'workspace-platform-api',
    ACCESS_TOKEN_TTL_SECONDS: 900,
    ACCESS_TOKEN_MAX_LIFETIME_SECONDS: 3600,
  } as AuthConfig;
  const verifier = new AccessTokenVerifier({
    keys: parsePublicKeys(publicPem),
    issuer: 'https://auth.test',
    audience: 'workspace-platform-api',
    maxLifetimeSeconds: 3600,
  });

  it('signs, with the key imported once, tokens that the services verify', async () => {
    const service = new TokenService(config);
    for (const sub of ['user-1', 'user-2']) {
      const { token, claims } = await service.signAccessToken({
        sub,
        sid: 'family-1',
        typ: 'user',
        app: 'app-1',
        email: `${sub}@example.com`,
      });
      expect(decodeProtectedHeader(token)).toEqual({
        alg: 'ES256',
        typ: 'at+jwt',
        kid: service.kid,
      });
      const verified = await verifier.verify(token);
      expect(verified).toMatchObject({ sub, client_id: 'app-1', aud: 'workspace-platform-api' });
      expect(verified.exp - verified.iat).toBe(900);
      expect(verified.jti).toBe(claims.jti);
      expect(decodeJwt(token)).toEqual(claims);
    }
  });

  it('refuses a lifetime that is not a number', async () => {
    const service = new TokenService(config);
    await expect(
      service.signAccessToken(
        { sub: 'user-1', sid: 'family-1', typ: 'user', app: 'app-1', email: null },
        { notAfter: Number.NaN },
      ),
    ).rejects.toThrow('"exp"');
  });
});
