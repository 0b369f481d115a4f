import { Inject, Injectable } from '@nestjs/common';
import { AesGcmEnvelope } from '@wp/security';
import { AUTH_CONFIG, type AuthConfig } from '../../config/auth.config.js';
import { RefreshHints } from './refresh-hints.js';
import { decideReplay } from './refresh-replay.js';
import { toSessionResource, type SessionResource } from './session.serializer.js';
import { RefreshTokenInvalidError, RefreshTokenReusedError } from './sessions.errors.js';
import {
  SessionsRepository,
  type PresentedRefreshToken,
  type SessionClient,
} from './sessions.repository.js';
import { SessionsService } from './sessions.service.js';
import { TokenService } from '../tokens/token.service.js';
import { userTokenSubject } from './user-token-subject.js';

/**
 * `POST /oauth/token/refresh` (docs/api.md § Accounts and sessions; Authentication 4): refresh
 * token rotation in families (docs/architecture.md § Identity and access ("Refresh token"), OAuth
 * 2.0 Security BCP § 4.14).
 *
 * - The current token rotates with one conditional UPDATE: exactly one of any number of
 *   concurrent callers wins; no read-then-write race.
 * - The token rotated last, replayed within `REFRESH_GRACE_SECONDS` (default 20 s), answers the
 *   SAME pair the winner got (kept sealed with AES-256-GCM for the window): N tabs refreshing at
 *   once see one rotation and N identical answers.
 * - Any older token, or the previous one after the window, is re-use: the whole family is
 *   revoked and its `sid` deny-listed, so every token of it dies (401 `REFRESH_TOKEN_REUSED`).
 *
 * Hot path (docs/auth.md "Performance"): a token this process issued has a `RefreshHints`
 * entry (family, application, user profile), so the new pair is signed at once and the
 * rotation is the request's only SQL statement; that statement re-checks the hint. Without a
 * hint, or when the hinted rotation matched nothing, the full path runs: lookup by token hash,
 * then the rotation or the replay decision.
 */
@Injectable()
export class RefreshService {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly lifecycle: SessionsService,
    private readonly tokens: TokenService,
    private readonly box: AesGcmEnvelope,
    private readonly hints: RefreshHints,
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
  ) {}

  /**
   * @param client user agent and address of the request: the session's last use
   * @returns the session resource with a new access token and a new refresh token
   * @throws RefreshTokenInvalidError 401 unknown, expired or revoked token, inactive account
   * @throws RefreshTokenReusedError 401 an old token was replayed; the family is now revoked
   */
  async refresh(refreshToken: string, client: SessionClient): Promise<SessionResource> {
    const hash = this.tokens.hashRefreshToken(refreshToken);
    const hint = this.hints.take(hash);
    if (hint) {
      const rotated = await this.tryRotate(hint, hash, client);
      if (rotated) return rotated;
    }
    const presented = await this.sessions.findByTokenHash(hash);
    if (!presented || presented.user.status !== 'active') throw new RefreshTokenInvalidError();
    if (presented.tokenGeneration === presented.familyGeneration) {
      const rotated = await this.tryRotate(presented, hash, client);
      if (rotated) return rotated;
    }
    return this.replay(presented);
  }

  /**
   * Signs the new pair, then tries the conditional rotation (which re-checks the family, token
   * and user profile signed in); null when it matched nothing. A win leaves a hint for the next
   * rotation of the new token.
   */
  private async tryRotate(
    presented: PresentedRefreshToken,
    hash: string,
    client: SessionClient,
  ): Promise<SessionResource | null> {
    const { user, familyId, appId, amr } = presented;
    const refreshToken = this.tokens.newRefreshToken();
    const access = await this.tokens.signAccessToken(userTokenSubject(user, familyId, appId, amr));
    const session = toSessionResource(user, {
      accessToken: access.token,
      refreshToken,
      expiresIn: this.tokens.accessTokenTtl,
    });
    const sealed =
      this.config.REFRESH_GRACE_SECONDS > 0 ? this.box.encrypt(JSON.stringify(session)) : null;
    const newHash = this.tokens.hashRefreshToken(refreshToken);
    const won = await this.sessions.rotate({
      familyId,
      appId,
      user,
      currentHash: hash,
      newHash,
      sealedResponse: sealed,
      client,
    });
    if (!won) return null;
    this.hints.remember(newHash, {
      ...presented,
      tokenGeneration: presented.tokenGeneration + 1,
      familyGeneration: presented.tokenGeneration + 1,
    });
    return session;
  }

  /** The presented token is not (or no longer) current: grace answer, or re-use. */
  private async replay(presented: PresentedRefreshToken): Promise<SessionResource> {
    const state = await this.sessions.replayState(
      presented.familyId,
      this.config.REFRESH_GRACE_SECONDS,
    );
    const decision = decideReplay(presented.tokenGeneration, state);
    // `invalid` also when still current yet not rotated: the family ended in between.
    if (decision.kind === 'invalid') throw new RefreshTokenInvalidError();
    if (decision.kind === 'grace') {
      return JSON.parse(this.box.decrypt(decision.sealed)) as SessionResource;
    }
    await this.lifecycle.end(presented.familyId, 'reuse_detected');
    throw new RefreshTokenReusedError();
  }
}
