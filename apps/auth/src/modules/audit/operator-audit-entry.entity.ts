import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One operator change to the platform's sign-in configuration (docs/auth.md § Sign-in with an
 * OpenID provider, "Audit"): append-only, written in the transaction of the change. Such changes
 * concern no account and no organization, so they are kept here rather than in an organization's
 * audit log.
 */
@Entity('operator_audit_log')
@Index('operator_audit_log_keyset_idx', ['occurredAt', 'id'])
export class OperatorAuditEntry {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('timestamptz')
  occurredAt!: Date;

  /**
   * `oidc_connection.created`, `.changed`, `.enabled`, `.disabled`;
   * `client_application.redirect_uris_changed`.
   */
  @Column('text')
  action!: string;

  /** `admin_access` (the API with an `Admin-Access` secret) or `cli` (`npm run cli`). */
  @Column('text')
  actorType!: string;

  /** The operating-system user of a CLI run; null through the API (the secret names nobody). */
  @Column('text', { nullable: true })
  actorId!: string | null;

  // jscpd:ignore-start: the request and target columns of an audit row, as org's audit_log has them (a table of another service and database, nothing to share).
  /** Client address of the Admin-Access request; null from the CLI. */
  @Column('text', { nullable: true })
  clientAddress!: string | null;

  /** `X-Request-Id` of the Admin-Access request; null from the CLI. */
  @Column('text', { nullable: true })
  requestId!: string | null;

  /** `User-Agent` of the Admin-Access request; null from the CLI. */
  @Column('text', { nullable: true })
  userAgent!: string | null;

  /** `oidc_connection` or `client_application`. */
  @Column('text')
  targetType!: string;

  @Column('text')
  targetId!: string;

  /** The connection's slug; the application's name. */
  @Column('text', { nullable: true })
  targetLabel!: string | null;

  // jscpd:ignore-end

  /**
   * Non-secret facts: the names of the fields changed (never a value of the client secret);
   * the redirect URIs added and removed (space-separated).
   */
  @Column('jsonb')
  details!: Record<string, string | number | boolean | null>;
}
