import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A session: one refresh token family (OAuth 2.0 Security BCP § 4.14). Its id is the `sid`
 * claim of every access token issued in it. Only the current refresh token's SHA-256 is kept
 * here (single use, rotated on each refresh with one conditional UPDATE); every token ever issued
 * in the family is listed in `refresh_token` with its generation, so a replayed old token is
 * recognised and revokes the family (docs/architecture.md § Identity and access ("Refresh token")).
 * Stored with `fillfactor` 70 (migration `RefreshRotationHot`): room on each page for the row's
 * next version.
 */
@Entity('refresh_token_family')
@Index('refresh_token_family_user_idx', ['userId'])
@Index('refresh_token_family_expires_idx', ['expiresAt'])
export class RefreshTokenFamily {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('uuid')
  userId!: string;

  @Column('uuid')
  appId!: string;

  /**
   * Unique without a constraint of its own: both statements that set it (session open, rotation)
   * insert the same hash into `refresh_token`, whose primary key refuses a hash issued before.
   * Not indexed, like every column a rotation changes, so that rotations are HOT updates.
   */
  @Column({ type: 'char', length: 64 })
  currentTokenHash!: string;

  /** Rotations so far; the current token has this generation. */
  @Column('int', { default: 0 })
  generation!: number;

  @Column('timestamptz', { nullable: true })
  rotatedAt!: Date | null;

  /**
   * The session answered to the last rotation, sealed with `AesGcmEnvelope` (AES-256-GCM), replayed
   * to a caller presenting the previous token within the grace window; cleared afterwards.
   */
  @Column('text', { nullable: true })
  graceResponse!: string | null;

  @Column('timestamptz')
  expiresAt!: Date;

  @Column('timestamptz', { nullable: true })
  revokedAt!: Date | null;

  /**
   * `logout`, `reuse_detected`, `password_reset`, `password_changed`, `ended_by_user` (sessions
   * list), `others_ended_by_user`, `passkey_removed` (the passkey that signed it in was removed),
   * `sso_required` (its organization started requiring its own connection).
   */
  @Column('text', { nullable: true })
  revokedReason!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  /** Last login or refresh of the session (access token use is not tracked). */
  @Column('timestamptz', { nullable: true })
  lastUsedAt!: Date | null;

  /** `User-Agent` of that last use (at most 512 characters). */
  @Column('text', { nullable: true })
  lastUserAgent!: string | null;

  /** Client address of that last use. */
  @Column('text', { nullable: true })
  lastClientAddress!: string | null;

  /**
   * `amr` (RFC 8176) of the sign-in that opened the session, signed into every access token of
   * the family; null for a password (or password + TOTP) sign-in (docs/auth.md § Passkeys).
   */
  @Column('text', { array: true, nullable: true })
  amr!: string[] | null;

  /**
   * The passkey (`passkey_credential.id`) whose sign-in opened the session; null for every other
   * sign-in. Removing that passkey ends the session (docs/auth.md § Passkeys).
   */
  @Column('uuid', { nullable: true })
  passkeyId!: string | null;

  /**
   * The OIDC connection (`oidc_connection.id`) whose sign-in opened the session; null for every
   * other sign-in. An organization that starts requiring SSO ends the sessions at its domains
   * that its own connection did not open (docs/auth.md § Organization single sign-on).
   */
  @Column('uuid', { nullable: true })
  connectionId!: string | null;
}
