import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { LlmApiKey } from './llm-api-key.entity.js';

/** LLM provider keys: the only code that reads or writes `llm_api_key`. */
@Injectable()
export class LlmKeysRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(key: LlmApiKey, manager: EntityManager): Promise<LlmApiKey> {
    await manager.insert(LlmApiKey, key);
    return manager.findOneByOrFail(LlmApiKey, { id: key.id });
  }

  find(projectId: number, id: string, manager: EntityManager): Promise<LlmApiKey | null> {
    return manager.findOneBy(LlmApiKey, { projectId, id });
  }

  async delete(id: string, manager: EntityManager): Promise<void> {
    await manager.delete(LlmApiKey, { id });
  }

  listForProject(projectId: number): Promise<LlmApiKey[]> {
    return this.dataSource.getRepository(LlmApiKey).find({
      where: { projectId },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  listForOrganization(organizationId: number): Promise<LlmApiKey[]> {
    return this.dataSource.getRepository(LlmApiKey).find({
      where: { organizationId },
      order: { projectId: 'ASC', createdAt: 'ASC', id: 'ASC' },
    });
  }
}
