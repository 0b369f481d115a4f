import { Injectable } from '@nestjs/common';
import { TxHost } from '@wp/persistence';
import { ProjectCredentialsRepository } from '../project-credentials/project-credentials.repository.js';
import { LlmApiKey } from './llm-api-key.entity.js';

/** LLM provider keys: the only code that reads or writes `llm_api_key`. */
@Injectable()
export class LlmKeysRepository extends ProjectCredentialsRepository<LlmApiKey> {
  constructor(txHost: TxHost) {
    super(txHost, LlmApiKey);
  }
}
