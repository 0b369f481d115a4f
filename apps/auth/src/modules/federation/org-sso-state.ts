import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { EventPayload } from '@wp/contracts';
import type { RequestMeta } from '@wp/http';
import { parseEmail } from '@wp/identity';
import { EventBus } from '@wp/messaging';
import { TxHost } from '@wp/persistence';
import { AuthAudit } from '../audit/auth-audit.js';
import { SsoRequiredError } from './federation.errors.js';
import { SsoRequiredSessions } from './sso-required-sessions.js';

/** Where an e-mail domain signs in: its organization, whether SSO is required, the connection. */
export interface DomainRealm {
  domain: string;
  organizationId: number;
  ssoRequired: boolean;
  /** The organization's own enabled connection's slug, or null when it has none. */
  connection: string | null;
}

/**
 * A sign-in attempt refused for SSO that goes to the audit log: a `user.signed_in` failure of
 * `user` with `details: {method, reason: 'sso_required'}`.
 */
export interface SsoRefusalAudit {
  user: { id: string; email: string | null };
  meta: RequestMeta;
  /** The way in that was refused, e.g. `passkey`. */
  method: string;
}

/** The domain of an e-mail address as org stores it (IDNA A-labels, lower case), or null. */
export function emailDomain(email: string | null | undefined): string | null {
  return email ? (parseEmail(email)?.domain.toLowerCase() ?? null) : null;
}

/**
 * The rule of {@link OrgSsoState.refusal} applied to a realm already read (the password login
 * reads it in the same statement as the account, `LoginLookup`).
 * @returns the refusal to throw (403 `SSO_REQUIRED`), or null
 */
export function ssoRefusalOf(
  realm: DomainRealm | null | undefined,
  viaOrganizationId?: number,
): SsoRequiredError | null {
  return refusesSignIn(realm, viaOrganizationId)
    ? new SsoRequiredError(realm.domain, realm.connection)
    : null;
}

/**
 * The rule itself: `realm` (of the address signing in) belongs to an organization that requires
 * SSO, and the way in is not that organization's own connection (`viaOrganizationId`). For a
 * caller that refuses in its own form (the OIDC callback redirects with `SSO_REQUIRED`).
 */
export function refusesSignIn(
  realm: DomainRealm | null | undefined,
  viaOrganizationId?: number,
): realm is DomainRealm {
  return !!realm?.ssoRequired && realm.organizationId !== viaOrganizationId;
}

/**
 * The realm of one domain (`param`: the placeholder of the domain, e.g. `$1`): at most one row of
 * `organization_id`, `sso_required` and `slug` (the organization's enabled connection, or null).
 * Also a subquery of the password grant's one-statement lookup (sessions' `LoginLookup`).
 */
export function realmByDomainSql(param: string): string {
  return `SELECT d.organization_id, o.sso_required, c.slug
         FROM sso_domain d
         JOIN sso_organization o ON o.organization_id = d.organization_id
         LEFT JOIN oidc_connection c ON c.organization_id = d.organization_id AND c.enabled
        WHERE d.domain = ${param}`;
}

/**
 * Auth's copy of organizations' verified e-mail domains and `ssoRequired` (docs/auth.md
 * § Organization single sign-on), replicated from `org.organization_sso.changed` (event-carried
 * state: a newer version replaces the organization's domains) and read by home-realm discovery,
 * the password grant and the callback of an organization's connection.
 */
@Injectable()
export class OrgSsoState implements OnModuleInit {
  constructor(
    private readonly txHost: TxHost,
    private readonly bus: EventBus,
    private readonly sessions: SsoRequiredSessions,
    private readonly audit: AuthAudit,
  ) {}

  onModuleInit(): void {
    this.bus.on('org.organization_sso.changed', 'org-sso-domains', (event) =>
      this.apply(event.payload),
    );
  }

  /**
   * Applies a state newer than the one held (older redeliveries change nothing). A state that
   * requires SSO also ends the sessions at its domains its own connection did not open — so
   * turning `ssoRequired` on, or verifying a domain while it is on, shuts the other ways in
   * that were already open ({@link SsoRequiredSessions}).
   */
  async apply(state: EventPayload<'org.organization_sso.changed'>): Promise<void> {
    const manager = this.txHost.tx;
    const applied = await manager.query<unknown[]>(
      `INSERT INTO sso_organization (organization_id, sso_required, version) VALUES ($1, $2, $3)
       ON CONFLICT (organization_id) DO UPDATE
         SET sso_required = EXCLUDED.sso_required, version = EXCLUDED.version
         WHERE sso_organization.version < EXCLUDED.version
       RETURNING organization_id`,
      [state.organizationId, state.ssoRequired, state.version],
    );
    if (applied.length === 0) return;
    await manager.query('DELETE FROM sso_domain WHERE organization_id = $1', [
      state.organizationId,
    ]);
    if (state.domains.length > 0) {
      // A domain moves only when its old organization's removal was applied; a newer claim of
      // another organization cannot exist before (org verifies a domain for one organization).
      await manager.query(
        `INSERT INTO sso_domain (domain, organization_id)
         SELECT unnest($2::text[]), $1::int
         ON CONFLICT (domain) DO UPDATE SET organization_id = EXCLUDED.organization_id`,
        [state.organizationId, state.domains],
      );
    }
    if (state.ssoRequired) {
      await this.sessions.endOutsideConnection(state.organizationId, state.domains);
    }
  }

  /**
   * The one "organization requires SSO" rule (docs/auth.md § Organization single sign-on): an
   * address at a verified domain of an organization that requires SSO gets in only through
   * that organization's own connection.
   * @param email the address as typed or stored; not an address: never refused
   * @param viaOrganizationId the organization whose own connection is signing in, if any (its
   *   own addresses are allowed); absent for a password, code, passkey or other connection
   * @returns the refusal to throw (403 `SSO_REQUIRED`, `meta: {connection, domain}`), or null
   */
  async refusal(
    email: string | null | undefined,
    viaOrganizationId?: number,
  ): Promise<SsoRequiredError | null> {
    return ssoRefusalOf(await this.realmOf(email), viaOrganizationId);
  }

  /**
   * Refuses a way in other than the organization's own connection ({@link refusal}); with
   * `audit`, the refused sign-in is first written to the audit log ({@link AuthAudit.record}:
   * in the transaction active, if any).
   * @throws SsoRequiredError 403 `SSO_REQUIRED` with `meta: {connection, domain}`
   */
  async assertAllowed(email: string | null | undefined, audit?: SsoRefusalAudit): Promise<void> {
    const refusal = await this.refusal(email);
    if (!refusal) return;
    if (audit) {
      await this.audit.record({
        action: 'user.signed_in',
        outcome: 'failure',
        user: audit.user,
        meta: audit.meta,
        details: { method: audit.method, reason: 'sso_required' },
      });
    }
    throw refusal;
  }

  /** The realm of an e-mail address's domain, or null when no organization verified it. */
  async realmOf(email: string | null | undefined): Promise<DomainRealm | null> {
    const domain = emailDomain(email);
    if (!domain) return null;
    const rows = await this.txHost.tx.query<
      { organization_id: number; sso_required: boolean; slug: string | null }[]
    >(realmByDomainSql('$1'), [domain]);
    const row = rows[0];
    if (!row) return null;
    return {
      domain,
      organizationId: row.organization_id,
      ssoRequired: row.sso_required,
      connection: row.slug,
    };
  }
}
