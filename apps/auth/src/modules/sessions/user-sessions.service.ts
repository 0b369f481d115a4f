import { TxHost } from '@wp/persistence';
import { Injectable } from '@nestjs/common';
import { ForbiddenError, NotFoundError, type RequestMeta } from '@wp/http';
import type { Principal } from '@wp/security';
import { AuthAudit } from '../audit/auth-audit.js';
import { SessionsRepository } from './sessions.repository.js';
import { SessionsService } from './sessions.service.js';
import {
  toUserSessionData,
  type SessionsEndedResource,
  type UserSessionListResource,
} from './user-sessions.serializer.js';

/**
 * The signed-in user's own sessions (docs/auth.md § Session management): list the live
 * refresh token families, end one, end all but the current one. Ending works as logout does:
 * the family is revoked under its row lock (a concurrent refresh loses) and its `sid`
 * deny-listed before the commit, so its access tokens are refused by every service within 1 s.
 */
@Injectable()
export class UserSessionsService {
  constructor(
    private readonly txHost: TxHost,
    private readonly repository: SessionsRepository,
    private readonly sessions: SessionsService,
    private readonly audit: AuthAudit,
  ) {}

  /** `GET /users/me/sessions`. @throws ForbiddenError 403 for agent tokens */
  async list(principal: Principal): Promise<UserSessionListResource> {
    requireUser(principal);
    const rows = await this.repository.findActiveOfUser(principal.id);
    return { data: rows.map((row) => toUserSessionData(row, principal.sessionId)) };
  }

  /**
   * `DELETE /users/me/sessions/{id}` (the current one too: then it is a logout).
   * @throws NotFoundError 404 when the user has no such live session; ForbiddenError 403 agents
   */
  async end(principal: Principal, sessionId: string, meta: RequestMeta): Promise<void> {
    requireUser(principal);
    await this.txHost.withTransaction(async () => {
      const ended = await this.repository.revokeOfUser(principal.id, sessionId, 'ended_by_user');
      if (!ended) throw new NotFoundError('Session', 'No live session with this id is yours.');
      await this.sessions.denyList(sessionId);
      await this.audit.record({
        action: 'session.ended',
        user: userOf(principal),
        target: { type: 'session', id: sessionId, label: null },
        meta,
        details: { current: sessionId === principal.sessionId },
      });
    });
  }

  /** `DELETE /users/me/sessions`: every session but the caller's. */
  async endOthers(principal: Principal, meta: RequestMeta): Promise<SessionsEndedResource> {
    requireUser(principal);
    const ended = await this.txHost.withTransaction(async () => {
      const count = await this.sessions.endAllOfUser(
        principal.id,
        'others_ended_by_user',
        principal.sessionId,
      );
      await this.audit.record({
        action: 'session.others_ended',
        user: userOf(principal),
        meta,
        details: { sessionsEnded: count },
      });
      return count;
    });
    return { sessionsEnded: ended };
  }
}

function requireUser(principal: Principal): void {
  if (principal.type !== 'user') {
    throw new ForbiddenError('Only users have sessions.', 'USER_TOKEN_REQUIRED');
  }
}

function userOf(principal: Principal): { id: string; email: string | null } {
  return { id: principal.id, email: principal.email };
}
