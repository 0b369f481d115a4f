import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A WebAuthn credential (passkey) of an account (docs/auth.md § Passkeys): its credential id
 * (base64url, unique across accounts), COSE public key, signature counter and the relying party
 * it was created for. `last_used_at` is set by every sign-in with it.
 */
@Entity('passkey_credential')
@Index('passkey_credential_user_idx', ['userId'])
export class PasskeyCredential {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('uuid')
  userId!: string;

  /** The credential id as the authenticator gave it, base64url (W3C WebAuthn § 4 "Credential ID"). */
  @Column({ type: 'text', unique: true })
  credentialId!: string;

  /** COSE_Key bytes (RFC 9052 § 7) of the credential's public key. */
  @Column('bytea')
  publicKey!: Buffer;

  /** The last signature counter accepted (WebAuthn § 6.1.1); 0 for authenticators without one. */
  @Column('bigint', { default: 0 })
  signCount!: string;

  @Column('text', { array: true, default: () => "'{}'" })
  transports!: string[];

  /** `singleDevice` or `multiDevice` (the BE flag at registration). */
  @Column('text')
  deviceType!: string;

  /** The BS flag of the latest ceremony: the credential is synced / backed up. */
  @Column('boolean')
  backedUp!: boolean;

  @Column('text')
  name!: string;

  /** Relying party id the credential is scoped to (its application's, at registration). */
  @Column('text')
  rpId!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @Column('timestamptz', { nullable: true })
  lastUsedAt!: Date | null;
}
