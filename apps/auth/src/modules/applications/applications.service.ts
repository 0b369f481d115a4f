import { type PeriodicJob, periodicJobs } from '@wp/observability';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { ApiKeyRegistry, hashApiKey } from '@wp/security';
import { AUTH_CONFIG, type AuthConfig } from '../../config/auth.config.js';
import { ApplicationsRepository } from './applications.repository.js';
import type { ClientApplication } from './client-application.entity.js';

const RESYNC_MS = 30_000;

/**
 * Client applications and their Api-Keys (docs/architecture.md § Identity and access): registers
 * `BOOTSTRAP_API_KEY` at boot, creates applications for the CLI, and keeps the shared registry
 * (Redis, or the platform database in embedded mode) that every service's Api-Key guard reads in
 * line with the database: every 30 s, and at once whenever the registry was lost
 * (`AuthStoreRebuild`, docs/architecture.md § Redis is a cache). A registry that does not answer
 * at boot does not stop the boot: it is filled when it is back.
 */
@Injectable()
export class ApplicationsService
  implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown
{
  private readonly logger = new Logger('Applications');
  private job?: PeriodicJob;

  constructor(
    private readonly applications: ApplicationsRepository,
    private readonly registry: ApiKeyRegistry,
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
  ) {}

  /** Before any sync or rebuild reads the applications (they run at bootstrap). */
  async onModuleInit(): Promise<void> {
    if (this.config.BOOTSTRAP_API_KEY) {
      await this.insert('bootstrap', this.config.BOOTSTRAP_API_KEY);
    }
  }

  async onApplicationBootstrap(): Promise<void> {
    const sync = () =>
      this.syncRegistry().catch((e: unknown) =>
        this.logger.warn(`Api-Key registry sync failed: ${(e as Error).message}`),
      );
    await sync();
    this.job = periodicJobs.every('auth.api-key-registry-sync', RESYNC_MS, () =>
      this.syncRegistry(),
    );
  }

  onApplicationShutdown(): Promise<void> | undefined {
    return this.job?.stop();
  }

  /**
   * Creates an application with a new random key. The key is returned once and never stored.
   * @returns `{application, apiKey}` where apiKey is `wpk_` + 43 base64url characters
   */
  async create(name: string): Promise<{ application: ClientApplication; apiKey: string }> {
    const apiKey = `wpk_${randomBytes(32).toString('base64url')}`;
    const application = await this.register(name, apiKey);
    return { application, apiKey };
  }

  /** Registers a given key (idempotent on the key). */
  async register(name: string, apiKey: string): Promise<ClientApplication> {
    const application = await this.insert(name, apiKey);
    await this.registry.add(application.keyHash, application.id);
    return application;
  }

  private insert(name: string, apiKey: string): Promise<ClientApplication> {
    return this.applications.insertIfAbsent({
      id: randomUUID(),
      name,
      keyHash: hashApiKey(apiKey),
      keyPrefix: apiKey.slice(0, 8),
    });
  }

  async syncRegistry(): Promise<void> {
    const active = await this.applications.findActive();
    await this.registry.publish(active.map((a) => ({ keyHash: a.keyHash, appId: a.id })));
  }
}
