import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A challenge handed out for one WebAuthn ceremony (docs/auth.md § Passkeys): registration
 * (bound to the account and client application) or sign-in (bound to the client application
 * only: the account is learnt from the credential). Deleted by the statement that redeems it,
 * so it works once; each new challenge sweeps expired rows in its own statement.
 */
@Entity('webauthn_challenge')
@Index('webauthn_challenge_expires_idx', ['expiresAt'])
export class WebauthnChallenge {
  /** The challenge itself, base64url of 32 random bytes. */
  @PrimaryColumn('text')
  challenge!: string;

  /** `registration` or `authentication`. */
  @Column('text')
  ceremony!: string;

  @Column('uuid', { nullable: true })
  userId!: string | null;

  @Column('uuid')
  appId!: string;

  @Column('timestamptz')
  expiresAt!: Date;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
