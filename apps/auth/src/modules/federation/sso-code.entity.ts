import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * The one-time code handed to the client application after a provider sign-in, exchanged at
 * `POST /oauth/token` (`grant_type=authorization_code`). Stored as SHA-256, single use.
 */
@Entity('sso_code')
@Index('sso_code_expires_at', ['expiresAt'])
export class SsoCode {
  @PrimaryColumn({ type: 'char', length: 64 })
  codeHash!: string;

  @Column('uuid')
  userId!: string;

  @Column('uuid')
  appId!: string;

  @Column('text')
  redirectUri!: string;

  @Column('text')
  codeChallenge!: string;

  /** The connection signed in through, kept on the session the exchange opens. */
  @Column('uuid', { nullable: true })
  connectionId!: string | null;

  @Column('timestamptz')
  expiresAt!: Date;
}
