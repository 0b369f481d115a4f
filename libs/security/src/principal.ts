import { createParamDecorator, type ExecutionContext } from '@nestjs/common';

/**
 * Access token claims (docs/architecture.md § Identity and access): `sub` user id (or Sentinel Pass
 * id for agents), `jti`, `sid` refresh token family (session) id, `iat`/`exp` seconds, `typ`, `app`
 * client application id, `email`. Agent tokens add `org`, `prj`, `scp` (scopes) and `prm`
 * (permissions).
 */
export interface AccessTokenClaims {
  sub: string;
  jti: string;
  sid: string;
  iat: number;
  exp: number;
  iss: string;
  typ: 'user' | 'agent';
  app: string;
  email: string | null;
  org?: number;
  prj?: number;
  scp?: string[];
  prm?: string[];
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
    appId: claims.app,
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
