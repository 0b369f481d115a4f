import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { AesGcmEnvelope } from '@wp/security';
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
  createdAt: string;
  updatedAt: string;
}

/** `openid` first, then the others once each. */
function scopeList(scopes: string[] | undefined): string {
  return [...new Set(['openid', ...(scopes ?? ['email', 'profile'])])].join(' ');
}

/**
 * Operators' management of OIDC connections (Admin-Access API and the CLI; docs/auth.md
 * § Sign-in with an OpenID provider). The client secret is sealed with the key ring before it
 * is stored and never returned. Changes are logged (they concern no account, so they are not
 * entries of an organization's audit log).
 */
@Injectable()
export class ConnectionsService {
  private readonly logger = new Logger('OidcConnections');

  constructor(
    private readonly connections: ConnectionsRepository,
    private readonly envelope: AesGcmEnvelope,
  ) {}

  /** @throws ConnectionSlugTakenError 409 */
  async create(dto: CreateConnectionDto): Promise<ConnectionView> {
    const now = new Date();
    const connection: OidcConnection = {
      id: randomUUID(),
      slug: dto.slug,
      name: dto.name,
      issuer: dto.issuer,
      clientId: dto.clientId,
      clientSecretSealed: this.envelope.encrypt(dto.clientSecret),
      scopes: scopeList(dto.scopes),
      emailClaim: dto.emailClaim ?? 'email',
      emailVerifiedClaim: dto.emailVerifiedClaim ?? 'email_verified',
      nameClaim: dto.nameClaim ?? 'name',
      enabled: dto.enabled ?? true,
      createdAt: now,
      updatedAt: now,
    };
    if (!(await this.connections.insert(connection))) throw new ConnectionSlugTakenError();
    this.logger.log(`connection ${connection.slug} (${connection.id}) created`);
    return toView(connection);
  }

  /** Absent (or null) fields stay as they are. @throws ConnectionNotFoundError 404 */
  async update(id: string, dto: UpdateConnectionDto): Promise<ConnectionView> {
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
    const updated = await this.connections.update(id, changes);
    if (!updated) throw new ConnectionNotFoundError();
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
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}
