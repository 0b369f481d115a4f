import { Injectable } from '@nestjs/common';
import { preparedQuery, type PreparedStatement } from '@wp/persistence';
import { DataSource } from 'typeorm';
import { LOGIN_COLUMNS, type LoginAccount } from '../accounts/users.repository.js';
import { emailDomain, realmByDomainSql, type DomainRealm } from '../federation/org-sso-state.js';

/**
 * The account of a username key ($1) and the realm of the username's e-mail domain ($2, null for
 * a phone number) in ONE statement: two independent indexed lookups, joined to a one-row
 * relation so that either may be missing.
 */
const LOOKUP: PreparedStatement = {
  name: 'auth_login_lookup',
  text: `SELECT a.*, r.organization_id AS "realmOrganizationId",
                r.sso_required AS "realmSsoRequired", r.slug AS "realmConnection"
           FROM (SELECT 1) AS one
           LEFT JOIN LATERAL (SELECT ${LOGIN_COLUMNS} FROM app_user WHERE username_key = $1) a
             ON true
           LEFT JOIN LATERAL (${realmByDomainSql('$2::text')} LIMIT 1) r ON true`,
};

type LookupRow = { [K in keyof LoginAccount]: LoginAccount[K] | null } & {
  realmOrganizationId: number | null;
  realmSsoRequired: boolean | null;
  realmConnection: string | null;
};

/** What the password grant reads before verifying: the account and the username's realm. */
export interface LoginLookupResult {
  account: LoginAccount | null;
  /** As `OrgSsoState.realmOf(username)`: null unless an organization verified the domain. */
  realm: DomainRealm | null;
}

/**
 * The password grant's read (docs/auth.md § Benchmark: login): one round trip for what were
 * `UsersRepository.findForLogin` and `OrgSsoState.realmOf`, a named prepared statement on the
 * pg pool (autocommit, no TypeORM query runner).
 */
@Injectable()
export class LoginLookup {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * @param key `usernameLookupKey(username)` (docs/auth.md § Usernames)
   * @param username as given: its e-mail domain, if any, is looked up in auth's copy of
   *   organizations' verified domains
   */
  async find(key: string, username: string): Promise<LoginLookupResult> {
    const domain = emailDomain(username);
    const rows = await preparedQuery<LookupRow>(this.dataSource, LOOKUP, [key, domain]);
    const row = rows[0];
    if (!row) return { account: null, realm: null };
    const account: LoginAccount | null =
      row.id === null
        ? null
        : {
            id: row.id,
            email: row.email,
            phone: row.phone,
            passwordHash: row.passwordHash as string,
            status: row.status as LoginAccount['status'],
            firstName: row.firstName as string,
            lastName: row.lastName as string,
            twoFactorEnabled: row.twoFactorEnabled as boolean,
          };
    const realm: DomainRealm | null =
      domain === null || row.realmOrganizationId === null
        ? null
        : {
            domain,
            organizationId: row.realmOrganizationId,
            ssoRequired: row.realmSsoRequired === true,
            connection: row.realmConnection,
          };
    return { account, realm };
  }
}
