import { Column, Entity, Index, UpdateDateColumn } from 'typeorm';
import { ProjectCredentialColumns } from '../project-credentials/project-credential.columns.js';

/**
 * A project API key pair (docs/api.md § Project API key; docs/architecture.md § Project key pair):
 * `pk_…` public key in clear, `sk_…` secret sealed in `encrypted_secret_key` (the shared
 * credential columns). `secret_key_sha256` is what `org.project.keys.changed` carries to
 * analytics; unlike an LLM key, a pair has a note that changes and may expire.
 */
@Entity('project_api_key')
@Index('project_api_key_project_idx', ['projectId', 'createdAt'])
@Index('project_api_key_organization_idx', ['organizationId'])
export class ProjectApiKey extends ProjectCredentialColumns {
  @Column('text')
  note!: string;

  @Column('text', { unique: true })
  publicKey!: string;

  @Column('text')
  secretKeySha256!: string;

  @Column('timestamptz', { nullable: true })
  expiresAt!: Date | null;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}
