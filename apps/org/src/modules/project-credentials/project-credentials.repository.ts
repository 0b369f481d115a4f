import type { Type } from '@nestjs/common';
import { activeTransaction, type TxHost } from '@wp/persistence';
import type { FindOptionsOrder, FindOptionsWhere, QueryDeepPartialEntity } from 'typeorm';
import type { ProjectCredentialColumns } from './project-credential.columns.js';

/**
 * Reads and writes of one table of project credentials (`project_api_key`, `llm_api_key`); each
 * table's repository extends this with the entity it is the only reader and writer of, and adds
 * its own queries. Lists are ordered oldest first, by id among equals, so pages and events list
 * a project's keys in one stable order.
 */
export abstract class ProjectCredentialsRepository<T extends ProjectCredentialColumns> {
  protected constructor(
    protected readonly txHost: TxHost,
    private readonly entity: Type<T>,
  ) {}

  async insert(credential: T): Promise<T> {
    const manager = activeTransaction(this.txHost);
    await manager.insert(this.entity, credential as QueryDeepPartialEntity<T>);
    return manager.findOneByOrFail(this.entity, this.where({ id: credential.id }));
  }

  /** The credential `id` of the project, or null (also when it belongs to another project). */
  find(projectId: number, id: string): Promise<T | null> {
    const manager = this.txHost.tx;
    return manager.findOneBy(this.entity, this.where({ projectId, id }));
  }

  async delete(id: string): Promise<void> {
    const manager = activeTransaction(this.txHost);
    await manager.delete(this.entity, this.where({ id }));
  }

  /** A project's credentials, oldest first. */
  listForProject(projectId: number): Promise<T[]> {
    const manager = this.txHost.tx;
    return manager.find(this.entity, {
      where: this.where({ projectId }),
      order: { createdAt: 'ASC', id: 'ASC' } as FindOptionsOrder<T>,
    });
  }

  /** Credentials of every project of an organization, by project then age. */
  listForOrganization(organizationId: number): Promise<T[]> {
    return this.txHost.tx.find(this.entity, {
      where: this.where({ organizationId }),
      order: { projectId: 'ASC', createdAt: 'ASC', id: 'ASC' } as FindOptionsOrder<T>,
    });
  }

  /** A condition on the shared columns, typed for the subclass's entity. */
  private where(
    condition: Partial<Pick<ProjectCredentialColumns, 'id' | 'projectId' | 'organizationId'>>,
  ): FindOptionsWhere<T> {
    return condition as FindOptionsWhere<T>;
  }
}
