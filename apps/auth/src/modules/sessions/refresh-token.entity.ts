import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { RefreshTokenFamily } from './refresh-token-family.entity.js';

/**
 * Every refresh token issued in a family, by SHA-256, with its generation: how a presented
 * token is found, and how a replayed older one is told apart from the current one. Deleted with
 * its family. Rotations' tokens (generation > 0) are indexed by issue time: how the purge finds
 * the sealed grace pairs whose window closed (`SessionPurgeRepository.purge`).
 */
@Entity('refresh_token')
@Index('refresh_token_family_idx', ['familyId'])
@Index('refresh_token_rotation_issued_idx', ['issuedAt'], { where: 'generation > 0' })
export class RefreshToken {
  @PrimaryColumn({ type: 'char', length: 64 })
  tokenHash!: string;

  @Column('uuid')
  familyId!: string;

  @ManyToOne(() => RefreshTokenFamily, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'family_id' })
  family?: RefreshTokenFamily;

  @Column('int')
  generation!: number;

  @Column('timestamptz', { default: () => 'now()' })
  issuedAt!: Date;
}
