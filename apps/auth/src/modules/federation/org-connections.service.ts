import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { ForbiddenError, type RequestMeta } from '@wp/http';
import { TxHost } from '@wp/persistence';
import { AesGcmEnvelope, type Principal } from '@wp/security';
import { AuthAudit } from '../audit/auth-audit.js';
import { ConnectionsRepository } from './connections.repository.js';
import { connectionFields, toView, type ConnectionView } from './connections.service.js';
import type { PutOrgConnectionDto } from './dto/org-connection.dto.js';
import { ConnectionNotFoundError, ConnectionSlugTakenError } from './federation.errors.js';
import type { OidcConnection } from './oidc-connection.entity.js';

/** The slug of an organization's own connection: the `connection` of `/oauth/authorize`. */
export const orgConnectionSlug = (organizationId: number): string => `org-${organizationId}`;

/**
 * An organization's own OIDC connection (docs/auth.md § Organization single sign-on), managed by
 * its OWNERs: auth owns connections and their sealed secrets, and knows who is OWNER from its
 * replica of `org.membership.changed` (`membership`). A member of another role gets 403; anyone
 * else — another organization's OWNER, an agent — 404 as for an unknown organization. Every
 * change is in the organization's audit log (`organization.sso_connection_changed`, through
 * `auth.audit.recorded`), never with the secret.
 */
@Injectable()
export class OrgConnectionsService {
  private readonly logger = new Logger('OrgConnections');

  constructor(
    private readonly txHost: TxHost,
    private readonly connections: ConnectionsRepository,
    private readonly envelope: AesGcmEnvelope,
    private readonly audit: AuthAudit,
  ) {}

  /**
   * @throws ConnectionNotFoundError 404 (not a member of the organization, or none set);
   *   ForbiddenError 403 a member but not an OWNER
   */
  async get(principal: Principal, organizationId: number): Promise<ConnectionView> {
    await this.requireOwner(principal, organizationId);
    const connection = await this.connections.findByOrganization(organizationId);
    if (!connection) throw new ConnectionNotFoundError();
    return toView(connection);
  }

  /**
   * Creates or replaces the organization's connection (fields absent keep their defaults:
   * claims `email`, `email_verified`, `name`; scopes `openid email profile`; enabled).
   * @returns the connection and whether it was created
   * @throws ConnectionNotFoundError 404; ForbiddenError 403 a member but not an OWNER;
   *   ConnectionSlugTakenError 409 (a platform connection
   *   already has the slug `org-<id>`)
   */
  async put(
    principal: Principal,
    organizationId: number,
    dto: PutOrgConnectionDto,
    meta: RequestMeta,
  ): Promise<{ view: ConnectionView; created: boolean }> {
    const fields = connectionFields(dto, this.envelope);
    const result = await this.txHost.withTransaction(async () => {
      await this.requireOwner(principal, organizationId, true);
      const existing = await this.connections.findByOrganization(organizationId);
      let connection: OidcConnection;
      if (existing) {
        connection = (await this.connections.update(existing.id, fields))!;
      } else {
        const now = new Date();
        connection = {
          id: randomUUID(),
          slug: orgConnectionSlug(organizationId),
          ...fields,
          organizationId,
          createdAt: now,
          updatedAt: now,
        };
        if (!(await this.connections.insert(connection))) throw new ConnectionSlugTakenError();
      }
      await this.audit.record({
        action: 'organization.sso_connection_changed',
        organizationId,
        user: { id: principal.id, email: principal.email },
        target: { type: 'oidc_connection', id: connection.id, label: connection.slug },
        meta,
        details: { issuer: connection.issuer, enabled: connection.enabled, created: !existing },
      });
      return { view: toView(connection), created: !existing };
    });
    this.logger.log(`organization ${organizationId} connection ${result.view.slug} saved`);
    return result;
  }

  /**
   * OWNER of the organization per auth's membership replica (organization level, access not
   * denied); with `lock`, the check row is locked until the transaction ends. A member with
   * another role (or denied access) knows the organization exists: 403, as org's SSO routes
   * answer (docs/org.md § Single sign-on for an organization); anyone else 404.
   * @throws ConnectionNotFoundError 404 not a member; ForbiddenError 403 not an OWNER
   */
  private async requireOwner(principal: Principal, organizationId: number, lock = false) {
    if (principal.type !== 'user') throw new ConnectionNotFoundError();
    const rows = await this.txHost.tx.query<{ role: string; access_denied: boolean }[]>(
      `SELECT role, access_denied FROM membership
        WHERE organization_id = $1 AND project_id = 0 AND user_id = $2${lock ? ' FOR SHARE' : ''}`,
      [organizationId, principal.id],
    );
    const row = rows[0];
    if (!row) throw new ConnectionNotFoundError();
    if (row.role !== 'OWNER' || row.access_denied) {
      throw new ForbiddenError("Only the organization's OWNERs manage its connection.");
    }
  }
}
