import { createHash, createPrivateKey, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import jwt from 'jsonwebtoken';
import type { AccessTokenClaims } from '@wp/security';
import { AUTH_CONFIG, type AuthConfig } from '../../config/auth.config.js';

export interface IssuedAccessToken {
  token: string;
  claims: AccessTokenClaims;
}

/**
 * Issues ES256 access tokens (ARCHITECTURE § 3 claims) and opaque refresh tokens. The private
 * key is parsed once into a `KeyObject`.
 */
@Injectable()
export class TokenService {
  private readonly privateKey: KeyObject;

  constructor(@Inject(AUTH_CONFIG) private readonly config: AuthConfig) {
    this.privateKey = createPrivateKey(config.JWT_PRIVATE_KEY);
  }

  get accessTokenTtl(): number {
    return this.config.ACCESS_TOKEN_TTL_SECONDS;
  }

  /**
   * Signs an access token living `ACCESS_TOKEN_TTL_SECONDS`, or less when `notAfter` (epoch
   * seconds) comes first: `exp = min(iat + ttl, notAfter)` (agent tokens end with their pass).
   */
  signAccessToken(
    input: Omit<AccessTokenClaims, 'jti' | 'iat' | 'exp' | 'iss'>,
    options: { notAfter?: number } = {},
  ): IssuedAccessToken {
    const iat = Math.floor(Date.now() / 1000);
    const claims: AccessTokenClaims = {
      ...input,
      jti: randomUUID(),
      iat,
      exp: Math.min(iat + this.config.ACCESS_TOKEN_TTL_SECONDS, options.notAfter ?? Infinity),
      iss: this.config.JWT_ISSUER,
    };
    // `iat` is in the claims already; jsonwebtoken keeps it (`noTimestamp` would delete it).
    const token = jwt.sign(claims, this.privateKey, { algorithm: 'ES256' });
    return { token, claims };
  }

  /** A new refresh token: `rt_` + 256 random bits, base64url (fits the token character rule). */
  newRefreshToken(): string {
    return `rt_${randomBytes(32).toString('base64url')}`;
  }

  /** SHA-256 hex of a refresh token: what the database stores. */
  hashRefreshToken(token: string): string {
    return createHash('sha256').update(token, 'utf8').digest('hex');
  }
}
