import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * An account's identity at an OpenID provider: the ID token's `iss` + `sub` (OpenID Connect
 * Core § 5.7: the only stable identifier), unique platform-wide.
 */
@Entity('user_identity')
@Index('user_identity_issuer_subject', ['issuer', 'subject'], { unique: true })
@Index('user_identity_user', ['userId'])
export class UserIdentity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('uuid')
  userId!: string;

  /** The connection it signed in through (kept when the connection is disabled). */
  @Column('uuid')
  connectionId!: string;

  @Column('text')
  issuer!: string;

  @Column('text')
  subject!: string;

  /** The provider's e-mail at the last sign-in (display only). */
  @Column('text', { nullable: true })
  email!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @Column('timestamptz')
  lastSignInAt!: Date;
}
