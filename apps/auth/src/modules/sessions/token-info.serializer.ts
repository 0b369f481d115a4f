import type { AccessTokenClaims } from '@wp/security';

/**
 * `GET /oauth/token/info` answer (contract: "200 with token claims"; shape decided in
 * docs/auth.md): the verified access token's claims as issued, in the style of OAuth 2.0 token
 * introspection (RFC 7662): `active` (always true: inactive tokens get 401), `token_type`,
 * `expires_in` (seconds left), then `sub`, `jti`, `sid`, `typ`, `app`, `client_id`, `email`,
 * `iss`, `aud`, `iat`, `exp` (epoch seconds), and agent tokens' `org`, `prj`, `scp`, `prm` when
 * present.
 */
export interface TokenInfoResource extends AccessTokenClaims {
  active: true;
  token_type: 'access_token';
  expires_in: number;
}

export function toTokenInfo(claims: AccessTokenClaims, nowSeconds: number): TokenInfoResource {
  const info: TokenInfoResource = {
    active: true,
    token_type: 'access_token',
    expires_in: Math.max(0, claims.exp - Math.floor(nowSeconds)),
    sub: claims.sub,
    jti: claims.jti,
    sid: claims.sid,
    typ: claims.typ,
    app: claims.app,
    client_id: claims.client_id,
    email: claims.email ?? null,
    iss: claims.iss,
    aud: claims.aud,
    iat: claims.iat,
    exp: claims.exp,
  };
  if (claims.org !== undefined) info.org = claims.org;
  if (claims.prj !== undefined) info.prj = claims.prj;
  if (claims.scp !== undefined) info.scp = claims.scp;
  if (claims.prm !== undefined) info.prm = claims.prm;
  return info;
}
