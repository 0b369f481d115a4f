import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * A platform-wide OpenID Connect connection (docs/auth.md § Sign-in with an OpenID provider):
 * one provider an operator configured, known to client applications by its `slug`. The client
 * secret is stored sealed with the service key ring (`SECRETS_ENCRYPTION_KEY`, AES-256-GCM).
 */
@Entity('oidc_connection')
@Index('oidc_connection_organization_key', ['organizationId'], { unique: true })
export class OidcConnection {
  @PrimaryColumn('uuid')
  id!: string;

  /** `[a-z0-9-]{1,64}`, unique: the `connection` parameter of `/oauth/authorize`. */
  @Column('text', { unique: true })
  slug!: string;

  /** Shown to people ("Sign in with …"). */
  @Column('text')
  name!: string;

  /** The provider's issuer identifier; discovery reads `<issuer>/.well-known/openid-configuration`. */
  @Column('text')
  issuer!: string;

  @Column('text')
  clientId!: string;

  /** `v<n>.<iv>.<tag>.<ciphertext>` (AesGcmEnvelope). */
  @Column('text')
  clientSecretSealed!: string;

  /** Space-separated scopes requested; always contains `openid`. */
  @Column('text')
  scopes!: string;

  /** ID token claim names read for the account: email, email_verified, name. */
  @Column('text')
  emailClaim!: string;

  @Column('text')
  emailVerifiedClaim!: string;

  @Column('text')
  nameClaim!: string;

  @Column('boolean')
  enabled!: boolean;

  /**
   * The organization that owns this connection (docs/auth.md § Organization single sign-on),
   * or null for a platform-wide one. Its sign-ins accept e-mails at the organization's verified
   * domains only and make the person a member (org, `auth.sso.signed_in`).
   */
  @Column('integer', { nullable: true })
  organizationId!: number | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}
