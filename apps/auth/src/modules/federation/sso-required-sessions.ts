import { Inject, Injectable, Logger } from '@nestjs/common';
import { returningRows, TxHost } from '@wp/persistence';
import { RevocationList } from '@wp/security';
import { AUTH_CONFIG, type AuthConfig } from '../../config/auth.config.js';

/**
 * Ends the sessions an organization's `ssoRequired` no longer allows (docs/auth.md
 * § Organization single sign-on, "`ssoRequired`"): every live session of an account whose
 * address is at one of the organization's verified domains, unless the organization's own
 * connection opened it (`refresh_token_family.connection_id`). Each ends as a logout ends one:
 * the family revoked (`revoked_reason` `sso_required`, a concurrent refresh loses the row) and
 * its `sid` deny-listed for the access token lifetime, in the caller's transaction.
 */
@Injectable()
export class SsoRequiredSessions {
  private readonly logger = new Logger('OrgSso');

  constructor(
    private readonly txHost: TxHost,
    private readonly revocations: RevocationList,
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
  ) {}

  /**
   * @param domains the organization's verified domains (IDNA A-labels, lower case), matched
   *   against the domain of each account's username key
   * @returns how many sessions were ended
   */
  async endOutsideConnection(organizationId: number, domains: string[]): Promise<number> {
    if (domains.length === 0) return 0;
    const ended = await returningRows<{ id: string }>(
      this.txHost.tx.query(
        `UPDATE refresh_token_family f
          SET revoked_at = now(), revoked_reason = 'sso_required', grace_response = NULL
         FROM app_user u
        WHERE f.user_id = u.id AND f.revoked_at IS NULL AND f.expires_at > now()
          AND substring(u.username_key FROM '@([^@]*)$') = ANY ($1::text[])
          AND f.connection_id IS DISTINCT FROM
              (SELECT c.id FROM oidc_connection c WHERE c.organization_id = $2)
        RETURNING f.id`,
        [domains, organizationId],
      ),
    );
    for (const { id } of ended) {
      await this.revocations.revokeSession(id, this.config.ACCESS_TOKEN_TTL_SECONDS);
    }
    if (ended.length > 0) {
      this.logger.log(
        `organization ${organizationId} requires SSO: ${ended.length} sessions ended`,
      );
    }
    return ended.length;
  }
}
