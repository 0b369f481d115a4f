import { TxHost } from '@wp/persistence';
import { type PeriodicJob, periodicJobs } from '@wp/observability';
import { randomUUID } from 'node:crypto';
import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { purgeRevocations, RevocationList, type Principal } from '@wp/security';
import type { OutboxDraft } from '@wp/messaging';
import { DataSource } from 'typeorm';
import { AUTH_CONFIG, type AuthConfig } from '../../config/auth.config.js';
import type { User } from '../accounts/user.entity.js';
import { RefreshHints } from './refresh-hints.js';
import { toSessionResource, type SessionResource } from './session.serializer.js';
import { SessionPurgeRepository } from './session-purge.repository.js';
import { SessionsRepository, type SessionClient } from './sessions.repository.js';
import { TokenService } from '../tokens/token.service.js';
import { userTokenSubject } from './user-token-subject.js';

const PURGE_INTERVAL_MS = 60_000;
/**
 * How much each purge's look-back overlaps the previous one's, s: a rotation's token carries its
 * transaction's start time, and commits a little later than that.
 */
const PURGE_OVERLAP_SECONDS = 60;

/** Why a session ended (`refresh_token_family.revoked_reason`). */
export type SessionEndReason =
  | 'logout'
  | 'reuse_detected'
  | 'password_reset'
  | 'password_changed'
  | 'ended_by_user'
  | 'others_ended_by_user'
  | 'passkey_removed'
  | 'sso_required';

/**
 * Sessions (refresh token families): opening one at login/activation, ending one at logout
 * (docs/api.md § Authentication 6) or all of a user's at password reset/change. Ending a session
 * revokes its family in PostgreSQL (under the row lock refresh rotation also takes, so revoke
 * always wins) and puts its `sid` on the Redis deny-list every service checks, so its access
 * tokens stop working everywhere at once.
 */
@Injectable()
export class SessionsService implements OnApplicationBootstrap, OnApplicationShutdown {
  private job?: PeriodicJob;
  /** When the last purge that succeeded started (epoch ms); null before the first. */
  private lastPurgeAt: number | null = null;

  constructor(
    private readonly txHost: TxHost,
    private readonly dataSource: DataSource,
    private readonly sessions: SessionsRepository,
    private readonly purges: SessionPurgeRepository,
    private readonly tokens: TokenService,
    private readonly revocations: RevocationList,
    private readonly hints: RefreshHints,
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.job = periodicJobs.every('auth.session-purge', PURGE_INTERVAL_MS, async () => {
      const startedAt = Date.now();
      const lookback =
        this.lastPurgeAt === null
          ? null
          : Math.ceil((startedAt - this.lastPurgeAt) / 1000) + PURGE_OVERLAP_SECONDS;
      await this.purges.purge(this.config.REFRESH_GRACE_SECONDS, lookback);
      this.lastPurgeAt = startedAt;
      await purgeRevocations(this.dataSource);
    });
  }

  onApplicationShutdown(): Promise<void> | undefined {
    return this.job?.stop();
  }

  /**
   * Starts a session for an active user on a client application: a new family with its first
   * refresh token, and an access token whose `sid` is the family id.
   * @param client user agent and address of the request, the session's first "last use"
   * Joins the transaction active in the async context (activation, registration); otherwise
   * the insert runs alone (one atomic statement)
   * @param origin how the session was signed in: a passkey's `amr` (RFC 8176), kept on the
   *   family and signed into each of its access tokens, and the passkey's id, so removing it
   *   ends the session; or the OIDC connection of a provider sign-in (docs/auth.md
   *   § Organization single sign-on)
   * @param event an outbox row (a password sign-in's audit entry, `AuthAudit.draft`) written by
   *   the same statement as the session, outside a transaction only; the caller wakes the relay
   * @returns the contract's session resource
   * @throws Error when `event` is given while a transaction is active
   */
  async open(
    user: Pick<User, 'id' | 'email' | 'phone' | 'firstName' | 'lastName'>,
    appId: string,
    client: SessionClient,
    origin?: { amr?: string[]; passkeyId?: string; connectionId?: string | null },
    event?: OutboxDraft,
  ): Promise<SessionResource> {
    const amr = origin?.amr;
    const familyId = randomUUID();
    const refreshToken = this.tokens.newRefreshToken();
    const tokenHash = this.tokens.hashRefreshToken(refreshToken);
    const now = new Date();
    // The access token does not depend on the insert: signed (WebCrypto, libuv's pool) while
    // PostgreSQL writes; dropped if the insert fails.
    const [, access] = await Promise.all([
      this.sessions.insert(
        {
          id: familyId,
          userId: user.id,
          appId,
          currentTokenHash: tokenHash,
          expiresAt: new Date(now.getTime() + this.config.REFRESH_TOKEN_TTL_SECONDS * 1000),
          createdAt: now,
          lastUserAgent: client.userAgent,
          lastClientAddress: client.clientAddress,
          amr: amr ?? null,
          passkeyId: origin?.passkeyId ?? null,
          connectionId: origin?.connectionId ?? null,
        },
        event,
      ),
      this.tokens.signAccessToken(userTokenSubject(user, familyId, appId, amr)),
    ]);
    // A hint for the first refresh (checked again by the rotation: harmless if the caller's
    // transaction rolls back).
    this.hints.remember(tokenHash, {
      familyId,
      appId,
      tokenGeneration: 0,
      familyGeneration: 0,
      user: {
        id: user.id,
        email: user.email,
        phone: user.phone,
        firstName: user.firstName,
        lastName: user.lastName,
        status: 'active',
      },
      amr: amr ?? null,
    });
    return toSessionResource(user, {
      accessToken: access.token,
      refreshToken,
      expiresIn: this.tokens.accessTokenTtl,
    });
  }

  /**
   * `GET /oauth/token/revoke` (docs/api.md § Accounts and sessions; Authentication 6), in one
   * transaction: the access token's `jti` goes on the deny-list until its `exp`, and its session
   * (refresh token family `sid`) is revoked and deny-listed.
   */
  async logout(principal: Principal): Promise<void> {
    await this.txHost.withTransaction(async () => {
      await this.revocations.revokeToken(principal.tokenId, principal.expiresAt);
      // Agent tokens (docs/org.md § Sentinel Pass) have no refresh token family: their jti is
      // all there is to revoke.
      if (principal.type === 'user') await this.endIn(principal.sessionId, 'logout');
    });
  }

  /**
   * Ends one session: revokes the family under its row lock and deny-lists the `sid` before the
   * transaction commits (a Redis failure rolls the revocation back: 503, never half done).
   */
  async end(familyId: string, reason: SessionEndReason): Promise<void> {
    await this.txHost.withTransaction(() => this.endIn(familyId, reason));
  }

  private async endIn(familyId: string, reason: SessionEndReason) {
    await this.sessions.revoke(familyId, reason);
    await this.denyList(familyId);
  }

  /**
   * Deny-lists a session's `sid` for the access token lifetime (every service refuses it),
   * recorded in the caller's transaction (docs/architecture.md § Redis is a cache).
   */
  async denyList(familyId: string): Promise<void> {
    await this.revocations.revokeSession(familyId, this.config.ACCESS_TOKEN_TTL_SECONDS);
  }

  /**
   * Ends every live session of a user inside the caller's transaction, except `keepFamilyId`
   * (password change keeps the caller's own session).
   * @returns how many sessions were ended
   */
  async endAllOfUser(
    userId: string,
    reason: SessionEndReason,
    keepFamilyId: string | null = null,
  ): Promise<number> {
    const ended = await this.sessions.revokeAllOfUser(userId, reason, keepFamilyId);
    for (const sid of ended) await this.denyList(sid);
    return ended.length;
  }

  /**
   * Ends every live session a passkey signed in, inside the caller's transaction (the one that
   * removes the passkey): families revoked, `sid`s deny-listed, as logout does.
   * @returns how many sessions were ended
   */
  async endAllOfPasskey(userId: string, passkeyId: string): Promise<number> {
    const ended = await this.sessions.revokeAllOfPasskey(userId, passkeyId, 'passkey_removed');
    for (const sid of ended) await this.denyList(sid);
    return ended.length;
  }
}
