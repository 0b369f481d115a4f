import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  UpdateDateColumn,
  type Relation,
} from 'typeorm';
import { Project } from '../tenants/project.entity.js';

/**
 * A project API key pair (docs/api.md § Project API key; docs/architecture.md § Project key pair):
 * `pk_…` public key in clear, `sk_…` secret sealed with `AesGcmEnvelope` (AES-256-GCM) in
 * `encrypted_secret_key`, with the master key version in `secret_key_version` so keys can
 * rotate. `secret_key_sha256` is what `org.project.keys.changed` carries to analytics.
 */
@Entity('project_api_key')
@Index('project_api_key_project_idx', ['projectId', 'createdAt'])
@Index('project_api_key_organization_idx', ['organizationId'])
export class ProjectApiKey {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('int')
  projectId!: number;

  @Column('int')
  organizationId!: number;

  @Column('text')
  note!: string;

  @Column('text', { unique: true })
  publicKey!: string;

  @Column('text')
  encryptedSecretKey!: string;

  @Column('int')
  secretKeyVersion!: number;

  @Column('text')
  secretKeySha256!: string;

  @Column('timestamptz', { nullable: true })
  expiresAt!: Date | null;

  @Column('uuid', { nullable: true })
  createdBy!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;

  @ManyToOne(() => Project, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: Relation<Project>;
}
