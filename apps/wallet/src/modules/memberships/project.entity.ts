import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Read model of projects (`org.project.created` / `.deleted`): which organization a project
 * belongs to, so project wallets are governed by that organization's OWNERs/ADMINs too. A
 * deleted project stays as a tombstone so a late `created` redelivery cannot revive it.
 */
@Entity('project')
@Index('project_organization_idx', ['organizationId'])
export class Project {
  @PrimaryColumn('int')
  projectId!: number;

  @Column('int')
  organizationId!: number;

  @Column('text')
  name!: string;

  @Column('boolean', { default: false })
  deleted!: boolean;
}

/**
 * Read model of agents (Sentinel Passes, `org.sentinel_pass.changed`): the project an agent
 * belongs to, for agent wallets. `version` drops stale redeliveries; `deleted` is final.
 */
@Entity('agent')
export class Agent {
  @PrimaryColumn('uuid')
  passId!: string;

  @Column('int')
  organizationId!: number;

  @Column('int')
  projectId!: number;

  @Column('text')
  title!: string;

  @Column('boolean', { default: false })
  deleted!: boolean;

  @Column('bigint')
  version!: string;
}
