import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AUTH_CONFIG, type AuthConfig } from '../../config/auth.config.js';
import type { User } from '../users/user.entity.js';
import { toSessionResource, type SessionResource } from './session.serializer.js';
import { SessionsRepository } from './sessions.repository.js';
import { TokenService } from './token.service.js';

/** Opens sessions: a new refresh token family and its first access token. */
@Injectable()
export class SessionsService {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly tokens: TokenService,
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
  ) {}

  /**
   * Starts a session for an active user on a client application.
   * @returns the contract's session resource
   */
  async open(user: User, appId: string, manager?: EntityManager): Promise<SessionResource> {
    const familyId = randomUUID();
    const refreshToken = this.tokens.newRefreshToken();
    await this.sessions.insert(
      {
        id: familyId,
        userId: user.id,
        appId,
        currentTokenHash: this.tokens.hashRefreshToken(refreshToken),
        previousTokenHash: null,
        generation: 0,
        rotatedAt: null,
        graceResponse: null,
        expiresAt: new Date(Date.now() + this.config.REFRESH_TOKEN_TTL_SECONDS * 1000),
        revokedAt: null,
        revokedReason: null,
        createdAt: new Date(),
      },
      manager,
    );
    const access = this.tokens.signAccessToken({
      sub: user.id,
      sid: familyId,
      typ: 'user',
      app: appId,
      email: user.email,
    });
    return toSessionResource(user, {
      accessToken: access.token,
      refreshToken,
      expiresIn: this.tokens.accessTokenTtl,
    });
  }
}
