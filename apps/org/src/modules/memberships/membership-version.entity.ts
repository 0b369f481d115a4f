import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The version counter of `org.membership.changed` per (organization, project, user): project 0
 * stands for the organization-level membership. It outlives the membership rows (a removed
 * and re-added member continues from the last version), so every event about a triple carries
 * a strictly greater version than the one before, which is what consumers (wallet, auth) use to
 * drop stale redeliveries. Bumped with one `INSERT … ON CONFLICT DO UPDATE … RETURNING`, which
 * also holds the row lock until commit, so versions follow commit order.
 */
@Entity('membership_version')
export class MembershipVersion {
  @PrimaryColumn('int')
  organizationId!: number;

  /** 0 for the organization-level membership. */
  @PrimaryColumn('int')
  projectId!: number;

  @PrimaryColumn('uuid')
  userId!: string;

  @Column('bigint', { transformer: { to: (v: number) => v, from: (v: string) => Number(v) } })
  version!: number;
}
