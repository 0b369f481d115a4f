import { Injectable } from '@nestjs/common';
import { TxHost } from '@wp/persistence';
import { IsNull } from 'typeorm';
import { ClientApplication } from '../applications/client-application.entity.js';
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
  constructor(private readonly txHost: TxHost) {}

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
   * Replaces an application's allow-list.
   * @throws ApplicationNotFoundError 404 (unknown or revoked)
   */
  async set(
    appId: string,
    redirectUris: string[],
  ): Promise<{ id: string; redirectUris: string[] }> {
    const unique = [...new Set(redirectUris)];
    const result = await this.repo.update(
      { id: appId, revokedAt: IsNull() },
      { redirectUris: unique },
    );
    if (!result.affected) throw new ApplicationNotFoundError();
    return { id: appId, redirectUris: unique };
  }
}
