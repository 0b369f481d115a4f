import { Column, CreateDateColumn, UpdateDateColumn } from 'typeorm';
import type { Role } from '@wp/contracts';

/**
 * The columns an organization membership and a project membership share: the role, the version
 * of the last `org.membership.changed` about the row's (tenant, user) pair (see
 * `MembershipVersion`) and the row's times. Each entity declares its own key (organization or
 * project, and user) and what only it has (a project membership's `accessDenied`).
 */
export abstract class MembershipColumns {
  @Column('text')
  role!: Role;

  @Column('bigint', {
    default: 1,
    transformer: { to: (v: number) => v, from: (v: string) => Number(v) },
  })
  version!: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}
