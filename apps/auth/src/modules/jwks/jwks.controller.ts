import { createHash, createPublicKey, type JsonWebKey } from 'node:crypto';
import { Controller, Get, Inject } from '@nestjs/common';
import { NoApiKey } from '@wp/http';
import { AUTH_CONFIG, type AuthConfig } from '../../config/auth.config.js';

/** `GET /oauth/jwks.json` (RFC 7517): the public key that verifies access tokens. */
@Controller('oauth')
export class JwksController {
  private readonly jwks: { keys: JsonWebKey[] };

  constructor(@Inject(AUTH_CONFIG) config: AuthConfig) {
    const jwk = createPublicKey(config.JWT_PUBLIC_KEY).export({ format: 'jwk' });
    const kid = createHash('sha256').update(JSON.stringify(jwk)).digest('base64url').slice(0, 16);
    this.jwks = { keys: [{ ...jwk, kid, alg: 'ES256', use: 'sig' }] };
  }

  /** The public key set (RFC 7517) that verifies access tokens; no credentials needed. */
  @Get('jwks.json')
  @NoApiKey()
  keys(): { keys: JsonWebKey[] } {
    return this.jwks;
  }
}
