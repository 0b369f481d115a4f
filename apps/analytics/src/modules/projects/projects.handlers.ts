import { TxHost } from '@wp/persistence';
import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { EventBus } from '@wp/messaging';
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
    private readonly txHost: TxHost,
    private readonly bus: EventBus,
    private readonly projects: ProjectsRepository,
  ) {}

  onModuleInit(): void {
    this.bus.on('org.project.created', 'project_created', async (event) => {
      const { projectId, organizationId } = event.payload;
      await this.projects.ensureProject(projectId, organizationId);
      this.flag();
    });
    this.bus.on('org.project.keys.changed', 'project_keys', async (event) => {
      const { projectId, organizationId, version, keys } = event.payload;
      await this.projects.ensureProject(projectId, organizationId);
      const applied = await this.projects.replaceKeys(projectId, version, keys);
      if (!applied) {
        this.logger.debug(`keys of project ${projectId} v${version}: stale or deleted, skipped`);
      }
      this.flag();
    });
    this.bus.on('org.project.deleted', 'project_deleted', async (event) => {
      const { projectId, organizationId } = event.payload;
      await this.projects.markDeleted(projectId, organizationId);
      this.flag();
    });
  }

  /** Marks the delivery's transaction: the key cache refreshes after it commits. */
  private flag(): void {
    const runner = this.txHost.tx.queryRunner;
    if (runner) runner.data = { ...runner.data, [KEYS_CHANGED_FLAG]: true };
  }
}
