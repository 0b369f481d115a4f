import { Injectable } from '@nestjs/common';
import { TxHost } from '@wp/persistence';
import { IsNull } from 'typeorm';
import { ClientApplication } from '../applications/client-application.entity.js';
import { OperatorAudit, type OperatorActor } from '../audit/operator-audit.js';
import {
  ApplicationNotFoundError,
  RedirectUriNotAllowedError,
  UnknownClientError,
} from './federation.errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The exact redirect URI allow-list of each client application (RFC 6749 § 3.1.2.2, OAuth 2.0
 * Security BCP: exact string match, no patterns): set by an operator, checked by
 * `/oauth/authorize` before anything is redirected anywhere.
 */
@Injectable()
export class ApplicationsRedirects {
  constructor(
    private readonly txHost: TxHost,
    private readonly audit: OperatorAudit,
  ) {}

  private get repo() {
    return this.txHost.tx.getRepository(ClientApplication);
  }

  /**
   * @returns the redirect URI, registered exactly for the active application `clientId`
   * @throws UnknownClientError 400; RedirectUriNotAllowedError 400
   */
  async check(clientId: string | undefined, redirectUri: string | undefined): Promise<string> {
    if (!clientId || !UUID.test(clientId)) throw new UnknownClientError();
    const app = await this.repo.findOneBy({ id: clientId.toLowerCase(), revokedAt: IsNull() });
    if (!app) throw new UnknownClientError();
    if (!redirectUri || !app.redirectUris.includes(redirectUri)) {
      throw new RedirectUriNotAllowedError();
    }
    return redirectUri;
  }

  /**
   * Replaces an application's allow-list, and audits the change in `operator_audit_log` in the
   * same transaction (`client_application.redirect_uris_changed`, the URIs added and removed;
   * docs/auth.md § Operator audit log). A list with the same URIs is stored but not audited.
   * @throws ApplicationNotFoundError 404 (unknown or revoked)
   */
  async set(
    appId: string,
    redirectUris: string[],
    actor: OperatorActor,
  ): Promise<{ id: string; redirectUris: string[] }> {
    const unique = [...new Set(redirectUris)];
    return this.txHost.withTransaction(async () => {
      const app = await this.repo.findOne({
        where: { id: appId, revokedAt: IsNull() },
        lock: { mode: 'pessimistic_write' },
      });
      if (!app) throw new ApplicationNotFoundError();
      const added = unique.filter((uri) => !app.redirectUris.includes(uri));
      const removed = app.redirectUris.filter((uri) => !unique.includes(uri));
      await this.repo.update({ id: appId }, { redirectUris: unique });
      if (added.length === 0 && removed.length === 0) return { id: appId, redirectUris: unique };
      await this.audit.record({
        action: 'client_application.redirect_uris_changed',
        actor,
        target: { type: 'client_application', id: appId, label: app.name },
        details: { added: added.join(' '), removed: removed.join(' '), count: unique.length },
      });
      return { id: appId, redirectUris: unique };
    });
  }
}
