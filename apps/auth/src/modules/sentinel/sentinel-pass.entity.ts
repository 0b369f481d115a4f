import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Auth's read model of a Sentinel Pass (`org.sentinel_pass.changed`): what the agent token
 * exchange needs (key hash, state, expiry, referers, claims) plus the usage count and the
 * credential epoch that agent tokens' `sid` is derived from. Written by plain SQL in
 * `SentinelPassRepository`; this entity only describes the table (migration
 * 1795400000000-sentinel-pass-activity) so the schema drift check covers it.
 */
@Entity('sentinel_pass')
export class SentinelPass {
  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'PK_sentinel_pass' })
  id!: string;

  @Column('integer')
  organizationId!: number;

  @Column('integer')
  projectId!: number;

  @Column('boolean')
  active!: boolean;

  /** A deletion keeps a tombstone so an older redelivery cannot bring the pass back. */
  @Column('boolean', { default: false })
  deleted!: boolean;

  /** SHA-256 hex of the key; null once deleted. */
  @Column('char', { length: 64, nullable: true })
  keyHash!: string | null;

  // jscpd:ignore-start: auth's read model of org's sentinel_pass table (each service owns its tables): the columns agents log in with.
  @Column('timestamptz', { nullable: true })
  expiresAt!: Date | null;

  @Column('text', { array: true, default: () => "'{}'" })
  allowedReferers!: string[];

  @Column('text', { array: true, default: () => "'{}'" })
  scopes!: string[];

  @Column('text', { array: true, default: () => "'{}'" })
  permissions!: string[];
  // jscpd:ignore-end

  @Column('integer')
  version!: number;

  /** Stored `api_request` entries of the pass; bigint, read as a string by pg. */
  @Column('bigint', { default: 0 })
  usageCount!: string;

  @Column('integer', { default: 0 })
  credentialEpoch!: number;

  @Column('timestamptz', { default: () => 'now()' })
  updatedAt!: Date;
}
