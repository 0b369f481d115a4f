import { Column, Entity, Index } from 'typeorm';
import { ProjectCredentialColumns } from '../project-credentials/project-credential.columns.js';

/**
 * An LLM provider key of a project (docs/api.md § LLM API key;
 * docs/architecture.md § LLM API keys): the provider's secret sealed in `encrypted_secret_key`
 * (the shared credential columns), and only its masked form (`sk-…abcd`) ever leaves the service.
 * Created and deleted, never changed.
 */
@Entity('llm_api_key')
@Index('llm_api_key_project_idx', ['projectId', 'createdAt'])
@Index('llm_api_key_organization_idx', ['organizationId'])
export class LlmApiKey extends ProjectCredentialColumns {
  @Column('text')
  provider!: string;

  /** First three and last four characters around an ellipsis, e.g. `sk-…abcd`. */
  @Column('text')
  maskedSecretKey!: string;

  @Column('jsonb')
  customModels!: string[];

  @Column('boolean', { default: true })
  withDefaultModels!: boolean;
}
