import { randomBytes, randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { Outbox } from '@wp/messaging';
import { TxHost } from '@wp/persistence';
import type { Principal } from '@wp/security';
import { AccessService } from '../access/access.service.js';
import { AuditTrail } from '../audit/audit-trail.js';
import { ValidationFailedError } from '@wp/http';
import { DnsTxtResolver } from './dns-txt-resolver.js';
import { normalizeDomain, verificationRecordName, verificationRecordValue } from './domain-name.js';
import { SsoDomainsRepository, type DomainRow } from './sso-domains.repository.js';
import { domainData, type DomainData, type DomainListResource } from './sso-domains.serializer.js';
import {
  DnsUnavailableError,
  DomainExistsError,
  DomainNotFoundError,
  DomainNotVerifiedError,
  DomainTakenError,
} from './sso.errors.js';

/** The permission of every domain and SSO route: OWNER only (docs/org.md). */
export const MANAGE_SSO = 'organization.manageSecurity' as const;

/**
 * An organization's e-mail domains (docs/org.md § Single sign-on for an organization): an OWNER
 * adds one and gets a token, publishes `_wp-verification.<domain>` TXT `wp-verification=<token>`,
 * then asks for verification, which looks the record up through {@link DnsTxtResolver}. A domain
 * is verified by at most one organization. Each change is audited (`sso_domain.added`,
 * `.verified`, `.removed`) in its transaction, and a change of the verified set publishes
 * `org.organization_sso.changed` ({@link SsoState}).
 */
@Injectable()
export class SsoDomainsService {
  private readonly logger = new Logger('SsoDomains');

  constructor(
    private readonly txHost: TxHost,
    private readonly access: AccessService,
    private readonly domains: SsoDomainsRepository,
    private readonly resolver: DnsTxtResolver,
    private readonly audit: AuditTrail,
    private readonly outbox: Outbox,
  ) {}

  /** @throws 400 not a domain; 403/404; DomainExistsError 409 */
  async add(principal: Principal, organizationId: number, input: string): Promise<DomainData> {
    const domain = normalizeDomain(input);
    if (!domain) {
      throw new ValidationFailedError([
        {
          source: { pointer: '/data/attributes/domain' },
          detail: 'Not a domain name, e.g. example.com.',
        },
      ]);
    }
    const row: DomainRow = {
      id: randomUUID(),
      organizationId,
      domain,
      verificationToken: randomBytes(24).toString('base64url'),
      verifiedAt: null,
      createdAt: new Date(),
    };
    return this.txHost.withTransaction(async () => {
      const access = await this.access.organizationWith(principal, organizationId, MANAGE_SSO);
      if (!(await this.domains.insert(row))) throw new DomainExistsError();
      await this.audit.record(principal, {
        organizationId,
        action: 'sso_domain.added',
        target: { type: 'sso_domain', id: row.id, label: domain },
        details: { organization: access.organization.name },
      });
      return domainData(row);
    });
  }

  async list(principal: Principal, organizationId: number): Promise<DomainListResource> {
    await this.access.organizationWith(principal, organizationId, MANAGE_SSO);
    return { data: (await this.domains.list(organizationId)).map(domainData) };
  }

  /**
   * Looks the TXT record up (outside any transaction), then marks the domain verified under the
   * organization row lock. Verifying a verified domain answers it unchanged.
   * @throws 403/404; DomainNotFoundError 404; DomainNotVerifiedError 422; DomainTakenError 409;
   *   DnsUnavailableError 503
   */
  async verify(principal: Principal, organizationId: number, id: string): Promise<DomainData> {
    await this.access.organizationWith(principal, organizationId, MANAGE_SSO);
    const row = await this.domains.find(organizationId, id);
    if (!row) throw new DomainNotFoundError();
    if (row.verifiedAt) return domainData(row);
    const name = verificationRecordName(row.domain);
    const expected = verificationRecordValue(row.verificationToken);
    const records = await this.resolver.txt(name).catch((e: unknown) => {
      this.logger.warn(`TXT ${name}: ${(e as Error).message}`);
      throw new DnsUnavailableError();
    });
    if (!records.some((r) => r.trim() === expected)) {
      throw new DomainNotVerifiedError(name, expected);
    }
    return this.txHost.withTransaction(async () => {
      await this.access.organizationWith(principal, organizationId, MANAGE_SSO, { lock: true });
      const current = await this.domains.find(organizationId, id);
      if (!current) throw new DomainNotFoundError();
      if (current.verifiedAt) return domainData(current);
      if (await this.domains.verifiedElsewhere(organizationId, current.domain)) {
        throw new DomainTakenError();
      }
      const at = new Date();
      // The partial unique index settles a race between two organizations (23505 → 409).
      await this.domains.markVerified(id, at).catch((e: unknown) => {
        if ((e as { driverError?: { code?: string } }).driverError?.code === '23505') {
          throw new DomainTakenError();
        }
        throw e;
      });
      await this.audit.record(principal, {
        organizationId,
        action: 'sso_domain.verified',
        target: { type: 'sso_domain', id, label: current.domain },
        details: { record: name },
      });
      await this.publish(organizationId);
      return domainData({ ...current, verifiedAt: at });
    });
  }

  /** @throws 403/404; DomainNotFoundError 404 */
  async remove(principal: Principal, organizationId: number, id: string): Promise<void> {
    await this.txHost.withTransaction(async () => {
      await this.access.organizationWith(principal, organizationId, MANAGE_SSO, { lock: true });
      const row = await this.domains.delete(organizationId, id);
      if (!row) throw new DomainNotFoundError();
      await this.audit.record(principal, {
        organizationId,
        action: 'sso_domain.removed',
        target: { type: 'sso_domain', id, label: row.domain },
        details: { wasVerified: row.verifiedAt !== null },
      });
      if (row.verifiedAt) await this.publish(organizationId);
    });
  }

  /** `org.organization_sso.changed` with the next version, in the caller's transaction. */
  async publish(organizationId: number): Promise<void> {
    const state = await this.domains.nextState(organizationId);
    await this.outbox.enqueue('org.organization_sso.changed', { organizationId, ...state });
  }
}
