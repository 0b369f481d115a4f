import { Injectable } from '@nestjs/common';
import { DataSource, In, type EntityManager } from 'typeorm';
import { Project } from './project.entity.js';

/** Projects: the only code that reads or writes `project`. */
@Injectable()
export class ProjectsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(
    project: Pick<Project, 'organizationId' | 'name' | 'isDefault'>,
    manager: EntityManager,
  ): Promise<Project> {
    return manager.save(manager.create(Project, project));
  }

  /** Projects of several organizations (one query), by organization then name. */
  async findInOrganizations(organizationIds: number[]): Promise<Project[]> {
    if (organizationIds.length === 0) return [];
    return this.dataSource.getRepository(Project).find({
      where: { organizationId: In(organizationIds) },
      order: { organizationId: 'ASC', name: 'ASC', id: 'ASC' },
    });
  }
}
