import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { TxHost } from '@wp/persistence';
import { AesGcmEnvelope } from '@wp/security';
import { OperatorAudit, type OperatorActor } from '../audit/operator-audit.js';
import { ConnectionsRepository } from './connections.repository.js';
import type { CreateConnectionDto, UpdateConnectionDto } from './dto/connection.dto.js';
import { ConnectionNotFoundError, ConnectionSlugTakenError } from './federation.errors.js';
import type { OidcConnection } from './oidc-connection.entity.js';

/** A connection as operators see it: never its client secret. */
export interface ConnectionView {
  id: string;
  slug: string;
  name: string;
  issuer: string;
  clientId: string;
  scopes: string[];
  claims: { email: string; emailVerified: string; name: string };
  enabled: boolean;
  /** The owning organization (docs/auth.md § Organization single sign-on); null: platform-wide. */
  organizationId: number | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * The stored fields of a connection from its body (operators' and organizations' alike): the
 * client secret sealed, absent scopes, claims and `enabled` at their defaults.
 */
export function connectionFields(
  dto: Omit<CreateConnectionDto, 'slug'>,
  envelope: AesGcmEnvelope,
): Omit<OidcConnection, 'id' | 'slug' | 'organizationId' | 'createdAt' | 'updatedAt'> {
  return {
    name: dto.name,
    issuer: dto.issuer,
    clientId: dto.clientId,
    clientSecretSealed: envelope.encrypt(dto.clientSecret),
    scopes: scopeList(dto.scopes),
    emailClaim: dto.emailClaim ?? 'email',
    emailVerifiedClaim: dto.emailVerifiedClaim ?? 'email_verified',
    nameClaim: dto.nameClaim ?? 'name',
    enabled: dto.enabled ?? true,
  };
}

/** `openid` first, then the others once each. */
function scopeList(scopes: string[] | undefined): string {
  return [...new Set(['openid', ...(scopes ?? ['email', 'profile'])])].join(' ');
}

/**
 * Operators' management of OIDC connections (Admin-Access API and the CLI; docs/auth.md
 * § Sign-in with an OpenID provider). The client secret is sealed with the key ring before it
 * is stored and never returned. Every change is audited in `operator_audit_log`
 * ({@link OperatorAudit}) in the transaction of the change (they concern no account and no
 * organization, so they are not entries of an organization's audit log), and logged.
 */
@Injectable()
export class ConnectionsService {
  private readonly logger = new Logger('OidcConnections');

  constructor(
    private readonly txHost: TxHost,
    private readonly connections: ConnectionsRepository,
    private readonly envelope: AesGcmEnvelope,
    private readonly audit: OperatorAudit,
  ) {}

  /**
   * Audit entry `oidc_connection.created` (`details`: `issuer`, `enabled`).
   * @throws ConnectionSlugTakenError 409
   */
  async create(dto: CreateConnectionDto, actor: OperatorActor): Promise<ConnectionView> {
    const now = new Date();
    const connection: OidcConnection = {
      id: randomUUID(),
      slug: dto.slug,
      ...connectionFields(dto, this.envelope),
      organizationId: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.txHost.withTransaction(async () => {
      if (!(await this.connections.insert(connection))) throw new ConnectionSlugTakenError();
      await this.audit.record({
        action: 'oidc_connection.created',
        actor,
        target: { type: 'oidc_connection', id: connection.id, label: connection.slug },
        details: { issuer: connection.issuer, enabled: connection.enabled },
      });
    });
    this.logger.log(`connection ${connection.slug} (${connection.id}) created`);
    return toView(connection);
  }

  /**
   * Absent (or null) fields stay as they are. Audit entry `oidc_connection.disabled` or
   * `.enabled` when `enabled` is among the changes, else `oidc_connection.changed`; `details`:
   * `changed` (the field names, comma separated: never a value of the secret).
   * @throws ConnectionNotFoundError 404
   */
  async update(
    id: string,
    dto: UpdateConnectionDto,
    actor: OperatorActor,
  ): Promise<ConnectionView> {
    const changes: Partial<OidcConnection> = {};
    if (dto.name != null) changes.name = dto.name;
    if (dto.issuer != null) changes.issuer = dto.issuer;
    if (dto.clientId != null) changes.clientId = dto.clientId;
    if (dto.clientSecret != null)
      changes.clientSecretSealed = this.envelope.encrypt(dto.clientSecret);
    if (dto.scopes != null) changes.scopes = scopeList(dto.scopes);
    if (dto.emailClaim != null) changes.emailClaim = dto.emailClaim;
    if (dto.emailVerifiedClaim != null) changes.emailVerifiedClaim = dto.emailVerifiedClaim;
    if (dto.nameClaim != null) changes.nameClaim = dto.nameClaim;
    if (dto.enabled != null) changes.enabled = dto.enabled;
    const updated = await this.txHost.withTransaction(async () => {
      const row = await this.connections.update(id, changes);
      if (!row) throw new ConnectionNotFoundError();
      const fields = Object.keys(changes).map((k) =>
        k === 'clientSecretSealed' ? 'clientSecret' : k,
      );
      const action =
        changes.enabled === undefined
          ? 'oidc_connection.changed'
          : `oidc_connection.${changes.enabled ? 'enabled' : 'disabled'}`;
      await this.audit.record({
        action,
        actor,
        target: { type: 'oidc_connection', id, label: row.slug },
        details: { changed: fields.join(',') },
      });
      return row;
    });
    this.logger.log(
      `connection ${updated.slug} (${id}) changed: ${Object.keys(changes).join(', ')}`,
    );
    return toView(updated);
  }

  async list(): Promise<ConnectionView[]> {
    return (await this.connections.list()).map(toView);
  }

  /** The client secret of a connection, unsealed (for the provider's token endpoint). */
  clientSecret(connection: OidcConnection): string {
    return this.envelope.decrypt(connection.clientSecretSealed);
  }
}

export function toView(c: OidcConnection): ConnectionView {
  return {
    id: c.id,
    slug: c.slug,
    name: c.name,
    issuer: c.issuer,
    clientId: c.clientId,
    scopes: c.scopes.split(' '),
    claims: { email: c.emailClaim, emailVerified: c.emailVerifiedClaim, name: c.nameClaim },
    enabled: c.enabled,
    organizationId: c.organizationId,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}
