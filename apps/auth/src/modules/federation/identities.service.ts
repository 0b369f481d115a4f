import { Injectable } from '@nestjs/common';
import { ForbiddenError, type RequestMeta } from '@wp/http';
import type { Principal } from '@wp/security';
import { TxHost } from '@wp/persistence';
import { AuthAudit } from '../audit/auth-audit.js';
import { UsersRepository } from '../accounts/users.repository.js';
import { IdentityNotFoundError, LastSignInMethodError } from './federation.errors.js';
import { OidcConnection } from './oidc-connection.entity.js';
import { hasPassword } from './sso-accounts.js';
import { UserIdentity } from './user-identity.entity.js';

/** One linked provider identity as its owner sees it. */
export interface IdentityResource {
  type: 'identity';
  id: string;
  attributes: {
    connection: { slug: string | null; name: string | null };
    issuer: string;
    subject: string;
    email: string | null;
    createdAt: string;
    lastSignInAt: string;
  };
}

function requireUser(principal: Principal): void {
  if (principal.type !== 'user') {
    throw new ForbiddenError('Only users have identities.', 'USER_TOKEN_REQUIRED');
  }
}

/**
 * The signed-in user's provider identities (`/users/me/identities`): list, and unlink —
 * never the last way to sign in (no password and no other identity: 409
 * `LAST_SIGN_IN_METHOD`). Only the caller's own identities are visible: another user's id is
 * 404, like an unknown one.
 */
@Injectable()
export class IdentitiesService {
  constructor(
    private readonly txHost: TxHost,
    private readonly users: UsersRepository,
    private readonly audit: AuthAudit,
  ) {}

  async list(principal: Principal): Promise<{ data: IdentityResource[] }> {
    requireUser(principal);
    const identities = await this.txHost.tx
      .getRepository(UserIdentity)
      .find({ where: { userId: principal.id }, order: { createdAt: 'ASC' } });
    const connections = await this.txHost.tx.getRepository(OidcConnection).find();
    const byId = new Map(connections.map((c) => [c.id, c]));
    return {
      data: identities.map((i) => ({
        type: 'identity',
        id: i.id,
        attributes: {
          connection: {
            slug: byId.get(i.connectionId)?.slug ?? null,
            name: byId.get(i.connectionId)?.name ?? null,
          },
          issuer: i.issuer,
          subject: i.subject,
          email: i.email,
          createdAt: i.createdAt.toISOString(),
          lastSignInAt: i.lastSignInAt.toISOString(),
        },
      })),
    };
  }

  /** Under the account's row lock (two unlinks at once cannot remove the last two). */
  async unlink(principal: Principal, identityId: string, meta: RequestMeta): Promise<void> {
    requireUser(principal);
    await this.txHost.withTransaction(async () => {
      const manager = this.txHost.tx;
      const user = await this.users.findByIdForUpdate(principal.id);
      const repo = manager.getRepository(UserIdentity);
      const identity = await repo.findOneBy({ id: identityId, userId: principal.id });
      if (!user || !identity) throw new IdentityNotFoundError();
      const count = await repo.countBy({ userId: user.id });
      if (!hasPassword(user) && count <= 1) throw new LastSignInMethodError();
      await repo.delete({ id: identity.id });
      await this.audit.record({
        action: 'user.identity_unlinked',
        user,
        meta,
        target: { type: 'identity', id: identity.id, label: identity.issuer },
      });
    });
  }
}
