import { Column, CreateDateColumn, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { User } from '../accounts/user.entity.js';

export type ActivationChannel = 'email' | 'phone';

/**
 * The pending activation code of an account (at most one: issuing a new code replaces the
 * previous one). Only an HMAC-SHA256 of the code is stored, keyed with `AUTH_CODE_SECRET`: a
 * plain hash of six digits would be reversed by trying all 10^6 values.
 */
@Entity('activation_code')
export class ActivationCode {
  @PrimaryColumn('uuid')
  userId!: string;

  @OneToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Column('text')
  channel!: ActivationChannel;

  /** HMAC-SHA256 hex of `<userId>:<code>`. */
  @Column({ type: 'char', length: 64 })
  codeHmac!: string;

  @Column('int', { default: 0 })
  failedAttempts!: number;

  @Column('timestamptz')
  expiresAt!: Date;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
