import {
  Column,
  CreateDateColumn,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  type Relation,
} from 'typeorm';
import { Project } from '../tenants/project.entity.js';

/**
 * The columns every secret a project holds shares — its API key pairs (`project_api_key`) and
 * its LLM provider keys (`llm_api_key`): the secret sealed with `AesGcmEnvelope` (AES-256-GCM,
 * `v<n>.<iv>.<tag>.<ciphertext>`) and the master key version that sealed it, so the master key
 * can rotate (docs/architecture.md § Project key pair, § LLM API keys). Each entity adds what is
 * its own (a public key and note, or a provider, mask and models) and its table's indexes; rows
 * go with their project (`ON DELETE CASCADE`).
 */
export abstract class ProjectCredentialColumns {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('int')
  projectId!: number;

  @Column('int')
  organizationId!: number;

  @Column('text')
  encryptedSecretKey!: string;

  @Column('int')
  secretKeyVersion!: number;

  @Column('uuid', { nullable: true })
  createdBy!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @ManyToOne(() => Project, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: Relation<Project>;
}
