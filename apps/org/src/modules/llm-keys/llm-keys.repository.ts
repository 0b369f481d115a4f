import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ProjectCredentialsRepository } from '../project-credentials/project-credentials.repository.js';
import { LlmApiKey } from './llm-api-key.entity.js';

/** LLM provider keys: the only code that reads or writes `llm_api_key`. */
@Injectable()
export class LlmKeysRepository extends ProjectCredentialsRepository<LlmApiKey> {
  constructor(dataSource: DataSource) {
    super(dataSource, LlmApiKey);
  }
}
