import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { EventBus } from '@wp/messaging';
import type { EntityManager } from 'typeorm';
import { KEYS_CHANGED_FLAG } from './project-key-cache.js';
import { ProjectsRepository } from './projects.repository.js';

/**
 * Project key pairs arrive by events (docs/architecture.md § Data ownership and events):
 * `org.project.created` records the project, `org.project.keys.changed` replaces its key set
 * (event-carried state transfer, newer `version` wins), `org.project.deleted` ends it. Each runs in
 * the bus's transaction with its processed-event row, and flags the transaction so the key cache
 * re-reads right after commit.
 */
@Injectable()
export class ProjectsHandlers implements OnModuleInit {
  private readonly logger = new Logger('ProjectsHandlers');

  constructor(
    private readonly bus: EventBus,
    private readonly projects: ProjectsRepository,
  ) {}

  onModuleInit(): void {
    this.bus.on('org.project.created', 'project_created', async (event, manager) => {
      const { projectId, organizationId } = event.payload;
      await this.projects.ensureProject(manager, projectId, organizationId);
      flag(manager);
    });
    this.bus.on('org.project.keys.changed', 'project_keys', async (event, manager) => {
      const { projectId, organizationId, version, keys } = event.payload;
      await this.projects.ensureProject(manager, projectId, organizationId);
      const applied = await this.projects.replaceKeys(manager, projectId, version, keys);
      if (!applied) {
        this.logger.debug(`keys of project ${projectId} v${version}: stale or deleted, skipped`);
      }
      flag(manager);
    });
    this.bus.on('org.project.deleted', 'project_deleted', async (event, manager) => {
      const { projectId, organizationId } = event.payload;
      await this.projects.markDeleted(manager, projectId, organizationId);
      flag(manager);
    });
  }
}

function flag(manager: EntityManager): void {
  if (manager.queryRunner) {
    manager.queryRunner.data = { ...manager.queryRunner.data, [KEYS_CHANGED_FLAG]: true };
  }
}
