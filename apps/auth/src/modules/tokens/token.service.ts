import {
  createHash,
  createPrivateKey,
  randomUUID,
  type KeyObject,
  type webcrypto,
} from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  ACCESS_TOKEN_TYPE,
  jwkThumbprint,
  parsePublicKeys,
  pooledRandomBytes,
  type AccessTokenClaims,
} from '@wp/security';
import { CompactSign } from 'jose';
import { AUTH_CONFIG, type AuthConfig } from '../../config/auth.config.js';

export interface IssuedAccessToken {
  token: string;
  claims: AccessTokenClaims;
}

const utf8 = new TextEncoder();

/** What a caller says of a new access token; the service adds the rest. */
export type AccessTokenSubject = Omit<
  AccessTokenClaims,
  'jti' | 'iat' | 'exp' | 'iss' | 'aud' | 'client_id'
>;

/**
 * Issues access tokens as RFC 9068 JWTs (docs/architecture.md § Identity and access) and opaque
 * refresh tokens. Access tokens are ES256 JWS signed with `jose` (the one JWT library,
 * docs/decisions.md § Security) by the key of `JWT_PRIVATE_KEY`, parsed and imported as a WebCrypto
 * `CryptoKey` once (jose signs through WebCrypto and would import a `KeyObject` per token) as a
 * compact JWS of the claims' JSON (`CompactSign`: the same token `SignJWT` makes, without its
 * per-token deep copy of the claims, docs/auth.md § Performance); the header
 * carries `typ: at+jwt` and the key's `kid` (RFC 7638 thumbprint, docs/operations.md
 * § Signing-key rotation); the claims `iss`, `aud` (`JWT_AUDIENCE`), `sub`, `client_id` (and
 * `app`, the same client application id), `jti`, `iat`, `exp`, `sid`, `typ` (kind), `email`, and
 * the agent claims. Refuses to start when its key is not among the verifying keys or its
 * lifetime is longer than the services accept.
 */
@Injectable()
export class TokenService {
  private readonly privateKey: KeyObject;
  /** The same key as a WebCrypto key, made once: jose would convert a `KeyObject` per token. */
  private readonly signingKey: webcrypto.CryptoKey;
  /** `kid` of the signing key. */
  readonly kid: string;

  constructor(@Inject(AUTH_CONFIG) private readonly config: AuthConfig) {
    this.privateKey = createPrivateKey(config.JWT_PRIVATE_KEY);
    this.kid = jwkThumbprint(this.privateKey);
    this.signingKey = this.privateKey.toCryptoKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
      'sign',
    ]);
    if (!parsePublicKeys(config.JWT_PUBLIC_KEY).some((k) => k.kid === this.kid)) {
      throw new Error(
        "JWT_PUBLIC_KEY must include JWT_PRIVATE_KEY's public key (tokens would not verify)",
      );
    }
    if (config.ACCESS_TOKEN_TTL_SECONDS > config.ACCESS_TOKEN_MAX_LIFETIME_SECONDS) {
      throw new Error(
        'ACCESS_TOKEN_TTL_SECONDS must not exceed ACCESS_TOKEN_MAX_LIFETIME_SECONDS (services would refuse every token)',
      );
    }
  }

  get accessTokenTtl(): number {
    return this.config.ACCESS_TOKEN_TTL_SECONDS;
  }

  /**
   * Signs an access token living `ACCESS_TOKEN_TTL_SECONDS`, or less when `notAfter` (epoch
   * seconds) comes first: `exp = min(iat + ttl, notAfter)` (agent tokens end with their pass).
   * `client_id` is the subject's `app`.
   */
  async signAccessToken(
    input: AccessTokenSubject,
    options: { notAfter?: number } = {},
  ): Promise<IssuedAccessToken> {
    const iat = Math.floor(Date.now() / 1000);
    const claims: AccessTokenClaims = {
      iss: this.config.JWT_ISSUER,
      aud: this.config.JWT_AUDIENCE,
      client_id: input.app,
      ...input,
      jti: randomUUID(),
      iat,
      exp: Math.min(iat + this.config.ACCESS_TOKEN_TTL_SECONDS, options.notAfter ?? Infinity),
    };
    if (!Number.isFinite(claims.exp)) throw new TypeError('"exp" claim must be a finite number');
    const token = await new CompactSign(utf8.encode(JSON.stringify(claims)))
      .setProtectedHeader({ alg: 'ES256', typ: ACCESS_TOKEN_TYPE, kid: this.kid })
      .sign(this.signingKey);
    return { token, claims };
  }

  /** A new refresh token: `rt_` + 256 random bits, base64url (fits the token character rule). */
  newRefreshToken(): string {
    return `rt_${pooledRandomBytes(32).toString('base64url')}`;
  }

  /** SHA-256 hex of a refresh token: what the database stores. */
  hashRefreshToken(token: string): string {
    return createHash('sha256').update(token, 'utf8').digest('hex');
  }
}
