import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

/** A project inside an organization (contract § "Project"). One per organization is the default. */
@Entity('project')
@Index('project_organization_idx', ['organizationId'])
@Index('project_one_default_per_organization', ['organizationId'], {
  unique: true,
  where: 'is_default',
})
export class Project {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'ALWAYS' })
  id!: number;

  @Column('int')
  organizationId!: number;

  @Column('text')
  name!: string;

  @Column('boolean', { default: false })
  isDefault!: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}
