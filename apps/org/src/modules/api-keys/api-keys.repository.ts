import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { ProjectApiKey } from './project-api-key.entity.js';

/** Project API key pairs: the only code that reads or writes `project_api_key`. */
@Injectable()
export class ApiKeysRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(key: ProjectApiKey, manager: EntityManager): Promise<ProjectApiKey> {
    await manager.insert(ProjectApiKey, key);
    return manager.findOneByOrFail(ProjectApiKey, { id: key.id });
  }

  find(
    projectId: number,
    id: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<ProjectApiKey | null> {
    return manager.findOneBy(ProjectApiKey, { projectId, id });
  }

  async updateNote(id: string, note: string, manager: EntityManager): Promise<ProjectApiKey> {
    await manager.update(ProjectApiKey, { id }, { note });
    return manager.findOneByOrFail(ProjectApiKey, { id });
  }

  async delete(id: string, manager: EntityManager): Promise<void> {
    await manager.delete(ProjectApiKey, { id });
  }

  /** A project's key pairs, oldest first. */
  listForProject(
    projectId: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<ProjectApiKey[]> {
    return manager.find(ProjectApiKey, {
      where: { projectId },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  /** Key pairs of every project of an organization, by project then age. */
  listForOrganization(organizationId: number): Promise<ProjectApiKey[]> {
    return this.dataSource.getRepository(ProjectApiKey).find({
      where: { organizationId },
      order: { projectId: 'ASC', createdAt: 'ASC', id: 'ASC' },
    });
  }

  /** The oldest key pair that has not expired (what `secret=true` returns), or null. */
  async findOldestUnexpired(projectId: number): Promise<ProjectApiKey | null> {
    return this.dataSource
      .getRepository(ProjectApiKey)
      .createQueryBuilder('k')
      .where('k.project_id = :projectId', { projectId })
      .andWhere('(k.expires_at IS NULL OR k.expires_at > now())')
      .orderBy('k.created_at', 'ASC')
      .addOrderBy('k.id', 'ASC')
      .getOne();
  }
}
