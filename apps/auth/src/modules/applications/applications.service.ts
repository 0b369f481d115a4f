import { randomBytes, randomUUID } from 'node:crypto';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
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
 * line with the database (at boot and every 30 s, so a flushed store heals by itself).
 */
@Injectable()
export class ApplicationsService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Applications');
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly applications: ApplicationsRepository,
    private readonly registry: ApiKeyRegistry,
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.BOOTSTRAP_API_KEY) {
      await this.register('bootstrap', this.config.BOOTSTRAP_API_KEY);
    }
    await this.syncRegistry();
    this.timer = setInterval(() => {
      this.syncRegistry().catch((e: unknown) =>
        this.logger.warn(`Api-Key registry sync failed: ${(e as Error).message}`),
      );
    }, RESYNC_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
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
    const keyHash = hashApiKey(apiKey);
    const application = await this.applications.insertIfAbsent({
      id: randomUUID(),
      name,
      keyHash,
      keyPrefix: apiKey.slice(0, 8),
    });
    await this.registry.add(keyHash, application.id);
    return application;
  }

  async syncRegistry(): Promise<void> {
    const active = await this.applications.findActive();
    await this.registry.publish(active.map((a) => ({ keyHash: a.keyHash, appId: a.id })));
  }
}
