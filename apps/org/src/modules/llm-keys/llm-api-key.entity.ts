import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  type Relation,
} from 'typeorm';
import { Project } from '../tenants/project.entity.js';

/**
 * An LLM provider key of a project (docs/api.md § LLM API key;
 * docs/architecture.md § LLM API keys): the provider's secret sealed with `AesGcmEnvelope` (key
 * version stored), and only its masked form (`sk-…abcd`) ever leaves the service.
 */
@Entity('llm_api_key')
@Index('llm_api_key_project_idx', ['projectId', 'createdAt'])
@Index('llm_api_key_organization_idx', ['organizationId'])
export class LlmApiKey {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('int')
  projectId!: number;

  @Column('int')
  organizationId!: number;

  @Column('text')
  provider!: string;

  @Column('text')
  encryptedSecretKey!: string;

  @Column('int')
  secretKeyVersion!: number;

  /** First three and last four characters around an ellipsis, e.g. `sk-…abcd`. */
  @Column('text')
  maskedSecretKey!: string;

  @Column('jsonb')
  customModels!: string[];

  @Column('boolean', { default: true })
  withDefaultModels!: boolean;

  @Column('uuid', { nullable: true })
  createdBy!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @ManyToOne(() => Project, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: Relation<Project>;
}
