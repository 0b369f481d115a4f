import { createParamDecorator, type ExecutionContext } from '@nestjs/common';

/**
 * Access token claims (docs/architecture.md § Identity and access; RFC 9068 § 2.2): `iss`, `aud`
 * the platform's API (`JWT_AUDIENCE`), `sub` user id (or Sentinel Pass id for agents),
 * `client_id` the client application (Api-Key) the token was issued to, `jti`, `iat`/`exp`
 * seconds; and the platform's own: `sid` refresh token family (session) id, `typ` the kind
 * (`user` or `agent`; the JOSE header's `typ` is `at+jwt`), `app` the client application id
 * again (its name before `client_id`), `email`. Agent tokens add `org`, `prj`, `scp` (scopes)
 * and `prm` (permissions).
 */
export interface AccessTokenClaims {
  sub: string;
  jti: string;
  sid: string;
  iat: number;
  exp: number;
  iss: string;
  aud: string;
  client_id: string;
  typ: 'user' | 'agent';
  app: string;
  email: string | null;
  org?: number;
  prj?: number;
  scp?: string[];
  prm?: string[];
  /**
   * Authentication methods of the sign-in that opened the session (RFC 8176), present only when
   * it was more than a password: `["hwk","user","mfa"]` for a user-verified passkey
   * (docs/auth.md § Passkeys). Kept through refreshes.
   */
  amr?: string[];
}

/** The authenticated caller of a request. */
export interface Principal {
  type: 'user' | 'agent';
  /** User id, or the Sentinel Pass id of an agent. */
  id: string;
  email: string | null;
  sessionId: string;
  tokenId: string;
  appId: string;
  /** Token expiry, epoch seconds. */
  expiresAt: number;
  /** Present for agent tokens: the project the agent is confined to. */
  agent?: { organizationId: number; projectId: number; scopes: string[]; permissions: string[] };
  /** The verified token's claims as issued (`GET /oauth/token/info` answers them). */
  claims: AccessTokenClaims;
}

export function principalFromClaims(claims: AccessTokenClaims): Principal {
  const principal: Principal = {
    type: claims.typ,
    id: claims.sub,
    email: claims.email ?? null,
    sessionId: claims.sid,
    tokenId: claims.jti,
    appId: claims.client_id,
    expiresAt: claims.exp,
    claims,
  };
  if (claims.typ === 'agent' && claims.org !== undefined && claims.prj !== undefined) {
    principal.agent = {
      organizationId: claims.org,
      projectId: claims.prj,
      scopes: claims.scp ?? [],
      permissions: claims.prm ?? [],
    };
  }
  return principal;
}

/**
 * Whether the caller's session was opened with two factors at once: a user token whose `amr`
 * has `mfa` (a user-verified passkey sign-in, docs/auth.md § Passkeys). Org's two-factor policy
 * treats such a session like an account with TOTP on (docs/org.md § Two-factor policy).
 */
export function sessionHasTwoFactors(principal: Principal): boolean {
  return principal.type === 'user' && (principal.claims.amr?.includes('mfa') ?? false);
}

/** `@CurrentPrincipal() principal: Principal` in a controller of a guarded route. */
export const CurrentPrincipal = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): Principal => {
    return ctx.switchToHttp().getRequest<{ user: Principal }>().user;
  },
);

/** The client application (Api-Key) of a request, set by the Api-Key guard. */
export const CurrentClientApp = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): string | undefined => {
    return ctx.switchToHttp().getRequest<{ clientAppId?: string }>().clientAppId;
  },
);
