import { resource, type Resource } from '@wp/http';
import type { LlmApiKey } from './llm-api-key.entity.js';

export type LlmApiKeyAttributes = {
  provider: string;
  /** Masked (`sk-…abcd`): the key itself never leaves the service after creation. */
  secretKey: string;
  customModels: string[];
  withDefaultModels: boolean;
  projectId: string;
  createdAt: string;
};

/** LLM API key (docs/api.md § LLM API key): `type` `llm_api_keys`, as in the create body. */
export function toLlmApiKeyResource(key: LlmApiKey): Resource<LlmApiKeyAttributes> {
  return resource('llm_api_keys', key.id, {
    provider: key.provider,
    secretKey: key.maskedSecretKey,
    customModels: key.customModels,
    withDefaultModels: key.withDefaultModels,
    projectId: String(key.projectId),
    createdAt: key.createdAt.toISOString(),
  });
}
