import type { KeyObject } from 'node:crypto';

export const SECURITY_OPTIONS = Symbol('SECURITY_OPTIONS');

export interface SecurityOptions {
  /** P-256 public key that verifies ES256 access tokens. */
  jwtPublicKey: KeyObject;
  /** Expected `iss` claim. */
  jwtIssuer: string;
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
