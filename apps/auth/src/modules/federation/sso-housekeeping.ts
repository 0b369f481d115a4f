import {
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { type PeriodicJob, periodicJobs } from '@wp/observability';
import { SsoStore } from './sso-store.js';

/** Deletes expired pending sign-ins and codes every minute. */
@Injectable()
export class SsoHousekeeping implements OnApplicationBootstrap, OnApplicationShutdown {
  private job?: PeriodicJob;

  constructor(private readonly store: SsoStore) {}

  onApplicationBootstrap(): void {
    this.job = periodicJobs.every('auth.sso-purge', 60_000, () => this.store.purge());
  }

  onApplicationShutdown(): Promise<void> | undefined {
    return this.job?.stop();
  }
}
