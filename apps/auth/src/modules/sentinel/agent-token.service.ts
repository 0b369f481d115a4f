import { Injectable } from '@nestjs/common';
import { grantedAgentPermissions } from '@wp/contracts';
import { ActivityRecorder } from '@wp/platform';
import { randomUUID } from 'node:crypto';
import {
  agentSessionId,
  DENY_LIST_WRITERS,
  refererAllowed,
  RevocationList,
  sentinelKeyMatches,
} from '@wp/security';
import { TokenService } from '../tokens/token.service.js';
import { InvalidClientError, RefererNotAllowedError } from './sentinel.errors.js';
import { SentinelPassRepository } from './sentinel-pass.repository.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ENDPOINT = '/v1/api/oauth/token';

/**
 * The answer to a `client_credentials` exchange: the contract's Session shape
 * (docs/api.md § Session: `data.id`, `data.type` `session`, `accessToken`, and
 * `email`/`firstName`/`lastName` as strings — `""` for an agent, which has none;
 * docs/architecture.md § Session names) plus `tokenType`/`expiresIn`, without `refreshToken`
 * (docs/auth.md § Token exchange).
 */
export interface AgentSessionResource {
  data: {
    id: string;
    type: 'session';
    attributes: {
      accessToken: string;
      tokenType: 'Bearer';
      expiresIn: number;
      email: '';
      firstName: '';
      lastName: '';
    };
  };
  /** RFC 6749 § 5.1 fields, so standard OAuth 2.0 client libraries read the token too. */
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
}

export interface ExchangeRequest {
  clientId: string;
  clientSecret: string;
  appId: string;
  /** `Referer`, else `Origin`, else null. */
  referer: string | null;
  clientAddress: string | null;
  startedAt: number;
}

/**
 * Sentinel Pass token exchange (docs/architecture.md § Decisions where the contract is silent):
 * `client_credentials` with the pass id and key → an agent access token (`typ` agent, `sub` pass
 * id, `org`, `prj`, `scp`, `prm`), no refresh token (the agent holds the key and exchanges again);
 * `exp` is capped at the pass's `expiresAt`, so `expiresIn` may be shorter than the usual lifetime.
 * Each exchange is recorded as `token_generation`, each refusal of a known pass as `error`.
 */
@Injectable()
export class AgentTokenService {
  constructor(
    private readonly passes: SentinelPassRepository,
    private readonly tokens: TokenService,
    private readonly activity: ActivityRecorder,
    private readonly revocations: RevocationList,
  ) {}

  async exchange(request: ExchangeRequest): Promise<AgentSessionResource> {
    const pass = UUID.test(request.clientId)
      ? await this.passes.findPass(request.clientId.toLowerCase())
      : null;
    // Always compare (against a dummy when unknown): one timing for every refusal.
    const keyOk = sentinelKeyMatches(request.clientSecret, pass?.keyHash ?? null);
    const note = (statusCode: number, errorMessage: string | null) => {
      if (!pass) return;
      this.activity.record({
        agentUserId: pass.id,
        activityType: errorMessage === null ? 'token_generation' : 'error',
        endpoint: ENDPOINT,
        method: 'POST',
        statusCode,
        latencyMs: Math.round((performance.now() - request.startedAt) * 1000) / 1000,
        success: errorMessage === null,
        clientAddress: request.clientAddress,
        errorMessage,
      });
    };
    if (!pass) throw new InvalidClientError();
    const refusal = !keyOk
      ? 'invalid key'
      : !pass.active
        ? 'pass revoked'
        : pass.expiresAt !== null && pass.expiresAt.getTime() <= Date.now()
          ? 'pass expired'
          : null;
    if (refusal !== null) {
      note(401, refusal);
      throw new InvalidClientError();
    }
    const sid = agentSessionId(pass.id, pass.credentialEpoch);
    // org deny-lists an ended epoch before its revoke/delete/rotate_key answers; this read model
    // may not have the event yet: refuse the key at once rather than sign a refused token.
    if (await this.revocations.isRevoked(randomUUID(), sid, 0, DENY_LIST_WRITERS.agent)) {
      note(401, 'credentials withdrawn');
      throw new InvalidClientError();
    }
    if (!refererAllowed(request.referer, pass.allowedReferers)) {
      note(403, 'referer not allowed');
      throw new RefererNotAllowedError();
    }
    // A token never outlives its pass: exp = min(now + lifetime, expiresAt) (docs/auth.md).
    const issued = await this.tokens.signAccessToken(
      {
        sub: pass.id,
        sid,
        typ: 'agent',
        app: request.appId,
        email: null,
        org: pass.organizationId,
        prj: pass.projectId,
        scp: pass.scopes,
        // What the pass grants, not what it says: aliases expanded, unknown strings dropped
        // (docs/auth.md § Sentinel Pass), so the token stays small whatever the pass holds.
        prm: grantedAgentPermissions(pass.permissions),
      },
      pass.expiresAt ? { notAfter: Math.floor(pass.expiresAt.getTime() / 1000) } : {},
    );
    note(200, null);
    const expiresIn = issued.claims.exp - issued.claims.iat;
    return {
      data: {
        id: pass.id,
        type: 'session',
        attributes: {
          accessToken: issued.token,
          tokenType: 'Bearer',
          expiresIn,
          email: '',
          firstName: '',
          lastName: '',
        },
      },
      access_token: issued.token,
      token_type: 'Bearer',
      expires_in: expiresIn,
    };
  }
}
