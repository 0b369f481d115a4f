import {
  createHash,
  createPrivateKey,
  randomBytes,
  randomUUID,
  sign,
  type KeyObject,
} from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { AccessTokenClaims } from '@wp/security';
import { AUTH_CONFIG, type AuthConfig } from '../../config/auth.config.js';

export interface IssuedAccessToken {
  token: string;
  claims: AccessTokenClaims;
}

/** The JOSE header of every access token, base64url-encoded once. */
const ES256_HEADER = Buffer.from(JSON.stringify({ alg: 'ES256', typ: 'JWT' })).toString(
  'base64url',
);

/**
 * Issues ES256 access tokens (docs/architecture.md § Identity and access claims) and opaque refresh
 * tokens. The private key is parsed once into a `KeyObject`; tokens are compact JWS (RFC 7515)
 * signed directly with `crypto.sign` (ECDSA P-256 / SHA-256, signature as raw `r‖s`, RFC 7518 §
 * 3.4), which is what jsonwebtoken produces, without its per-call option validation.
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
    const signingInput = `${ES256_HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
    const signature = sign('sha256', Buffer.from(signingInput), {
      key: this.privateKey,
      dsaEncoding: 'ieee-p1363',
    });
    return { token: `${signingInput}.${signature.toString('base64url')}`, claims };
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
