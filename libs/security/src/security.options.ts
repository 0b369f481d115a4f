import type { JwtVerificationKey } from './jwt-keys.js';

export const SECURITY_OPTIONS = Symbol('SECURITY_OPTIONS');

export interface SecurityOptions {
  /**
   * P-256 public keys that verify ES256 access tokens (`JWT_PUBLIC_KEY`, `parsePublicKeys`):
   * the current and the previous during a rotation; a token's `kid` selects one.
   */
  jwtPublicKeys: JwtVerificationKey[];
  /** Expected `iss` claim (`JWT_ISSUER`). */
  jwtIssuer: string;
  /** Expected `aud` claim (`JWT_AUDIENCE`; RFC 9068 § 4). */
  jwtAudience: string;
  /** Longest `exp - iat` accepted, seconds (`ACCESS_TOKEN_MAX_LIFETIME_SECONDS`). */
  accessTokenMaxLifetimeSeconds: number;
  /** `ADMIN_ACCESS_TOKENS`: operator secrets accepted in `Admin-Access`. */
  adminAccessTokens: string[];
  /** Api-Key required on routes not marked otherwise (default true). */
  requireApiKey?: boolean;
  /**
   * Confine Sentinel Pass agent tokens to routes marked `@AgentAccess()` (default false): any
   * other route answers an agent 403 `AGENT_FORBIDDEN`, or 404 when its path names another
   * organization or project (`agentRouteRefusal`). On in org and wallet.
   */
  confineAgents?: boolean;
  /**
   * How long a "not revoked" answer of the deny-list is reused, ms (default 1000, the bound of
   * docs/architecture.md § Identity and access; 0 asks the store on every request). `RevocationList`.
   */
  revocationCacheMs?: number;
}
