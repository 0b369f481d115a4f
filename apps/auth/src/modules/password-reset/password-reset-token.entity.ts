import { Column, CreateDateColumn, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { User } from '../accounts/user.entity.js';

/**
 * The outstanding password reset token of an account (at most one: a new request replaces it).
 * Stored as SHA-256 (the token carries 256 random bits, so no key is needed); single use.
 */
@Entity('password_reset_token')
export class PasswordResetToken {
  @PrimaryColumn('uuid')
  userId!: string;

  @OneToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Column({ type: 'char', length: 64, unique: true })
  tokenHash!: string;

  @Column('timestamptz')
  expiresAt!: Date;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
