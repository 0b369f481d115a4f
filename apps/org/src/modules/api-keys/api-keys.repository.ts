import { Injectable } from '@nestjs/common';
import { activeTransaction, TxHost } from '@wp/persistence';
import { ProjectCredentialsRepository } from '../project-credentials/project-credentials.repository.js';
import { ProjectApiKey } from './project-api-key.entity.js';

/**
 * Project API key pairs: the only code that reads or writes `project_api_key`. Besides the
 * shared credential reads and writes, a pair's note changes and the oldest unexpired pair is
 * what `secret=true` shows.
 */
@Injectable()
export class ApiKeysRepository extends ProjectCredentialsRepository<ProjectApiKey> {
  constructor(txHost: TxHost) {
    super(txHost, ProjectApiKey);
  }

  async updateNote(id: string, note: string): Promise<ProjectApiKey> {
    const manager = activeTransaction(this.txHost);
    await manager.update(ProjectApiKey, { id }, { note });
    return manager.findOneByOrFail(ProjectApiKey, { id });
  }

  /** The oldest key pair that has not expired (what `secret=true` returns), or null. */
  async findOldestUnexpired(projectId: number): Promise<ProjectApiKey | null> {
    return this.txHost.tx
      .getRepository(ProjectApiKey)
      .createQueryBuilder('k')
      .where('k.project_id = :projectId', { projectId })
      .andWhere('(k.expires_at IS NULL OR k.expires_at > now())')
      .orderBy('k.created_at', 'ASC')
      .addOrderBy('k.id', 'ASC')
      .getOne();
  }
}
