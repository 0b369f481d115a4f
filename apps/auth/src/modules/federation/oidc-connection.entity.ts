import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * A platform-wide OpenID Connect connection (docs/auth.md § Sign-in with an OpenID provider):
 * one provider an operator configured, known to client applications by its `slug`. The client
 * secret is stored sealed with the service key ring (`SECRETS_ENCRYPTION_KEY`, AES-256-GCM).
 */
@Entity('oidc_connection')
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

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}
