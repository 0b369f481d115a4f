import { createHash } from 'node:crypto';
import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { HEADERS } from '@wp/contracts';
import { IS_PUBLIC, NO_API_KEY, UnauthenticatedError } from '@wp/http';
import { AccessTokenVerifier } from './access-token-verifier.js';
import { AGENT_ACCESS, agentRouteRefusal } from './agent-access.js';
import { principalFromClaims, type Principal } from './principal.js';
import { RevocationList } from './revocation-list.js';
import { SECURITY_OPTIONS, type SecurityOptions } from './security.options.js';
import { DENY_LIST_WRITERS } from './stores/cache-rebuilder.js';
import { bearerToken, isWellFormedToken } from './token-format.js';

const MAX_CACHED = 20_000;

interface AuthRequest {
  headers: Record<string, string | string[] | undefined>;
  params?: Record<string, string | undefined>;
  user?: Principal;
}

/**
 * Bearer authentication on every route not marked `@Public()` (docs/api.md § Authentication 2-3).
 * Order: header present → character rule (`TOKEN_MALFORMED`, before any parsing) → verified
 * token cache, else verification as an RFC 9068 resource server (`AccessTokenVerifier`, jose:
 * signature by `kid`, `typ: at+jwt`, `iss`, `aud`, `exp`, lifetime) → deny-list
 * (`TOKEN_REVOKED`). Verified tokens are
 * cached by SHA-256 until their `exp` so a service pays the ES256 verification once per token;
 * revocation is still checked on every request (`RevocationList`: in its store, or a remembered
 * "no" that an announced revocation clears; refused within 1 s at worst). All failures are 401. Then,
 * where the service confines agents, an agent token is held to the routes opened with `@AgentAccess()` and to its
 * own organization and project (403 `AGENT_FORBIDDEN` / 404, `agentRouteRefusal`; no I/O).
 */
@Injectable()
export class JwtAuthGuard implements CanActivate {
  private readonly verified = new Map<string, Principal>();
  private readonly verifier: AccessTokenVerifier;

  constructor(
    private readonly reflector: Reflector,
    private readonly revocations: RevocationList,
    @Inject(SECURITY_OPTIONS) private readonly options: SecurityOptions,
  ) {
    this.verifier = new AccessTokenVerifier({
      keys: options.jwtPublicKeys,
      issuer: options.jwtIssuer,
      audience: options.jwtAudience,
      maxLifetimeSeconds: options.accessTokenMaxLifetimeSeconds,
    });
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (
      this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets) ||
      this.reflector.getAllAndOverride<boolean>(NO_API_KEY, targets)
    ) {
      return true;
    }
    const request = context.switchToHttp().getRequest<AuthRequest>();
    const header = request.headers[HEADERS.authorization];
    if (header === undefined)
      throw new UnauthenticatedError('The Authorization header is required.', 'TOKEN_MISSING');
    const token = bearerToken(header);
    if (token === null || !isWellFormedToken(token)) {
      throw new UnauthenticatedError('The access token is malformed.', 'TOKEN_MALFORMED');
    }
    const principal = await this.verify(token);
    const writers = DENY_LIST_WRITERS[principal.type];
    if (
      await this.revocations.isRevoked(
        principal.tokenId,
        principal.sessionId,
        principal.expiresAt,
        writers,
      )
    ) {
      throw new UnauthenticatedError('The access token has been revoked.', 'TOKEN_REVOKED');
    }
    request.user = principal;
    if (principal.type === 'agent' && this.options.confineAgents) {
      const optedIn = this.reflector.getAllAndOverride<boolean>(AGENT_ACCESS, targets) ?? false;
      const refusal = agentRouteRefusal(principal, request.params, optedIn);
      if (refusal) throw refusal;
    }
    return true;
  }

  private async verify(token: string): Promise<Principal> {
    const key = createHash('sha256').update(token).digest('base64');
    const cached = this.verified.get(key);
    const now = Date.now() / 1000;
    if (cached) {
      if (cached.expiresAt > now) return cached;
      this.verified.delete(key);
      throw new UnauthenticatedError('The access token has expired.', 'TOKEN_EXPIRED');
    }
    const principal = principalFromClaims(await this.verifier.verify(token));
    this.dropExpired(now);
    if (this.verified.size >= MAX_CACHED) this.evictExpired(now);
    this.verified.set(key, principal);
    return principal;
  }

  /**
   * Drops expired tokens from the front of the cache. Entries sit in the order tokens were
   * first seen, which is nearly the order they expire (one lifetime for all), so the cache holds
   * about one lifetime's worth of tokens instead of filling up to `MAX_CACHED` with dead ones
   * (docs/operations.md § Memory over time). Amortized O(1) per insert.
   */
  private dropExpired(now: number): void {
    for (const [key, p] of this.verified) {
      if (p.expiresAt > now) return;
      this.verified.delete(key);
    }
  }

  private evictExpired(now: number): void {
    for (const [key, p] of this.verified) if (p.expiresAt <= now) this.verified.delete(key);
    if (this.verified.size >= MAX_CACHED) this.verified.clear();
  }
}
