import { type PeriodicJob, periodicJobs } from '@wp/observability';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { ANALYTICS_CONFIG, type AnalyticsConfig } from '../../config/analytics.config.js';
import { AnalyticsStore } from '../storage/analytics-store.js';
import { ProjectsRepository } from './projects.repository.js';

const INTERVAL_MS = 30_000;
const CHUNK = 10_000;

/**
 * Background housekeeping: deletes the data of deleted projects in chunks (a large project never
 * holds one long transaction) and forgets ingestion event ids past the dedupe window.
 */
@Injectable()
export class ProjectPurger implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ProjectPurger');
  private job?: PeriodicJob;

  constructor(
    private readonly projects: ProjectsRepository,
    private readonly store: AnalyticsStore,
    @Inject(ANALYTICS_CONFIG) private readonly config: AnalyticsConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.job = periodicJobs.every('analytics.project-purge', INTERVAL_MS, () => this.runOnce());
  }

  async onApplicationShutdown(): Promise<void> {
    await this.job?.stop();
  }

  /** One pass; returns the number of rows deleted (tests). */
  async runOnce(): Promise<number> {
    let deleted = await this.store.forgetEventsOlderThan(this.config.ANALYTICS_EVENT_DEDUP_HOURS);
    for (const projectId of await this.projects.pendingPurges()) {
      let n: number;
      do {
        n = await this.store.purgeProjectData(projectId, CHUNK);
        deleted += n;
      } while (n > 0);
      await this.projects.markPurged(projectId);
      this.logger.log(`purged the analytics data of deleted project ${projectId}`);
    }
    return deleted;
  }
}
