import { type JsonWebKey } from 'node:crypto';
import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { NoApiKey } from '@wp/http';
import { parsePublicKeys, publicJwks } from '@wp/security';
import { AUTH_CONFIG, type AuthConfig } from '../../config/auth.config.js';

/**
 * `GET /oauth/jwks.json` (RFC 7517): every key of `JWT_PUBLIC_KEY` — during a rotation the
 * current and the previous one — each with its `kid` (RFC 7638 thumbprint, the `kid` in access
 * token headers), `alg: ES256`, `use: sig` (docs/operations.md § Signing-key rotation).
 */
@Controller('oauth')
export class JwksController {
  private readonly jwks: { keys: JsonWebKey[] };

  constructor(@Inject(AUTH_CONFIG) config: AuthConfig) {
    this.jwks = publicJwks(parsePublicKeys(config.JWT_PUBLIC_KEY));
  }

  /** The public key set (RFC 7517) that verifies access tokens; no credentials needed. */
  @Get('jwks.json')
  @NoApiKey()
  @ApiOperation({ summary: 'Get the keys that verify access tokens' })
  keys(): { keys: JsonWebKey[] } {
    return this.jwks;
  }
}
