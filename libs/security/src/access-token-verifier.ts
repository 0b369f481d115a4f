import { UnauthenticatedError } from '@wp/http';
import { errors, jwtVerify, type JWTHeaderParameters, type JWTPayload } from 'jose';
import type { KeyObject } from 'node:crypto';
import type { JwtVerificationKey } from './jwt-keys.js';
import type { AccessTokenClaims } from './principal.js';

/** The JOSE header `typ` of access tokens (RFC 9068 § 2.1): `application/at+jwt`, shortened. */
export const ACCESS_TOKEN_TYPE = 'at+jwt';
/** Clock difference between auth and a service tolerated on `exp` and `iat`, seconds. */
const CLOCK_TOLERANCE_SECONDS = 5;
/** Claims every access token carries (RFC 9068 § 2.2, and the platform's own). */
const REQUIRED_CLAIMS = ['iss', 'exp', 'aud', 'sub', 'client_id', 'iat', 'jti', 'sid', 'typ'];

export interface AccessTokenVerifierOptions {
  /** `JWT_PUBLIC_KEY`: a token's `kid` picks one (`parsePublicKeys`). */
  keys: JwtVerificationKey[];
  /** `JWT_ISSUER`. */
  issuer: string;
  /** `JWT_AUDIENCE`: the one `aud` accepted. */
  audience: string;
  /** `ACCESS_TOKEN_MAX_LIFETIME_SECONDS`: the longest `exp - iat` accepted. */
  maxLifetimeSeconds: number;
}

/**
 * Verifies an access token as an RFC 9068 resource server does, with `jose` (one JWT library
 * for signing and verifying: docs/decisions.md § Security): JWS signature ES256 only, by the
 * `KeyObject` its header's `kid` names (a token without `kid` only while one key is
 * configured); header `typ` `at+jwt`; `iss` and `aud` exactly the configured ones; `exp`,
 * `iat`, `sub`, `client_id`, `jti`, `sid` and the kind `typ` present; not expired, not issued in
 * the future, and living no longer than `maxLifetimeSeconds` (`exp - iat`), each with 5 s of
 * clock tolerance. (docs/architecture.md § Identity and access.)
 */
export class AccessTokenVerifier {
  constructor(private readonly options: AccessTokenVerifierOptions) {}

  /**
   * @returns the token's claims
   * @throws UnauthenticatedError 401 `TOKEN_EXPIRED` (past `exp`) or `TOKEN_INVALID` (anything
   *   else: signature, key, header, claims, lifetime)
   */
  async verify(token: string): Promise<AccessTokenClaims> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, (header) => this.key(header), {
        algorithms: ['ES256'],
        typ: ACCESS_TOKEN_TYPE,
        issuer: this.options.issuer,
        audience: this.options.audience,
        requiredClaims: REQUIRED_CLAIMS,
        maxTokenAge: this.options.maxLifetimeSeconds,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
      }));
    } catch (error) {
      // `maxTokenAge` reports an `iat` too far back as expired too: that is a lifetime refusal.
      if (error instanceof errors.JWTExpired && error.claim === 'exp') {
        throw new UnauthenticatedError('The access token has expired.', 'TOKEN_EXPIRED');
      }
      throw invalid();
    }
    const claims = payload as unknown as AccessTokenClaims;
    if (!wellTyped(claims) || claims.exp - claims.iat > this.options.maxLifetimeSeconds) {
      throw invalid();
    }
    return claims;
  }

  private key(header: JWTHeaderParameters): KeyObject {
    const { keys } = this.options;
    const match =
      header.kid === undefined
        ? keys.length === 1
          ? keys[0]
          : undefined
        : keys.find((k) => k.kid === header.kid);
    if (!match) throw new errors.JWKSNoMatchingKey();
    return match.key;
  }
}

function invalid(): UnauthenticatedError {
  return new UnauthenticatedError('The access token is invalid.', 'TOKEN_INVALID');
}

/** The claims the services read have the types they expect (a signed token may still lie). */
function wellTyped(claims: AccessTokenClaims): boolean {
  return (
    typeof claims.sub === 'string' &&
    typeof claims.sid === 'string' &&
    typeof claims.jti === 'string' &&
    typeof claims.client_id === 'string' &&
    (claims.typ === 'user' || claims.typ === 'agent') &&
    Number.isFinite(claims.iat) &&
    Number.isFinite(claims.exp)
  );
}
