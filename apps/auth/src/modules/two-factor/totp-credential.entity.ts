import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * A user's TOTP authenticator (RFC 6238): one per account. Created pending by enrolment
 * (`confirmedAt` null) and confirmed by a first code; deleted when two-factor is turned off.
 * The shared secret is stored sealed with the service key ring (`SECRETS_ENCRYPTION_KEY`,
 * AES-256-GCM), never in clear.
 */
@Entity('totp_credential')
export class TotpCredential {
  @PrimaryColumn('uuid')
  userId!: string;

  /** The base32 secret, sealed (`v<key version>.<iv>.<tag>.<ciphertext>`). */
  @Column('text')
  sealedSecret!: string;

  @Column('timestamptz', { nullable: true })
  confirmedAt!: Date | null;

  /**
   * The highest time step (Unix time / 30 s) whose code was accepted: a code of this step or an
   * earlier one is refused (RFC 6238 § 5.2, no code accepted twice), by every replica alike.
   */
  @Column('bigint', { nullable: true })
  lastUsedStep!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
