import { Injectable } from '@nestjs/common';
import { NotFoundError, type RequestMeta } from '@wp/http';
import type { Principal } from '@wp/security';
import { TxHost } from '@wp/persistence';
import { UsersRepository } from '../accounts/users.repository.js';
import { AuthAudit } from '../audit/auth-audit.js';
import { SessionsService } from '../sessions/sessions.service.js';
import { activeAccount } from './passkey-account.js';
import { PasskeysRepository } from './passkeys.repository.js';
import {
  toPasskeyData,
  type PasskeyListResource,
  type PasskeyResource,
} from './passkeys.serializer.js';

/**
 * The signed-in account's passkeys: list, rename, remove (docs/auth.md § Passkeys). Another
 * account's passkey id answers 404 like an unknown one: nothing tells that it exists.
 */
@Injectable()
export class PasskeysService {
  constructor(
    private readonly txHost: TxHost,
    private readonly users: UsersRepository,
    private readonly passkeys: PasskeysRepository,
    private readonly audit: AuthAudit,
    private readonly sessions: SessionsService,
  ) {}

  /** `GET /users/me/passkeys`, oldest first. */
  async list(principal: Principal): Promise<PasskeyListResource> {
    const user = await activeAccount(principal, this.users);
    return { data: (await this.passkeys.listOf(user.id)).map(toPasskeyData) };
  }

  /** `PATCH /users/me/passkeys/{id}`. @throws NotFoundError 404 */
  async rename(principal: Principal, id: string, name: string): Promise<PasskeyResource> {
    const user = await activeAccount(principal, this.users);
    const row = await this.passkeys.rename(user.id, id, name.trim());
    if (!row) throw new NotFoundError('Passkey');
    return { data: toPasskeyData(row) };
  }

  /**
   * `DELETE /users/me/passkeys/{id}`: the credential stops signing in at once, and every live
   * session it signed in ends (refresh token families revoked, `sid`s deny-listed: their access
   * tokens are refused by every service, as after `DELETE /users/me/sessions/{id}`) — the
   * caller's own too, when it was one of them. The removal, the ended sessions and the audit
   * entry (`details.sessionsEnded`) commit together. @throws NotFoundError 404
   */
  async remove(principal: Principal, id: string, meta: RequestMeta): Promise<void> {
    const user = await activeAccount(principal, this.users);
    await this.txHost.withTransaction(async () => {
      const name = await this.passkeys.remove(user.id, id);
      if (name === null) throw new NotFoundError('Passkey');
      const sessionsEnded = await this.sessions.endAllOfPasskey(user.id, id);
      await this.audit.record({
        action: 'user.passkey_removed',
        user,
        meta,
        target: { type: 'passkey', id, label: name },
        details: { sessionsEnded },
      });
    });
  }
}
