import {
  Inject,
  Logger,
  Module,
  type DynamicModule,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { ReadinessRegistry } from '@wp/observability';
import { DataSource } from 'typeorm';
import { createDataSource, type DatabaseOptions } from './data-source.js';
import { runMigrationsLocked } from './database-admin.js';

export interface DatabaseModuleOptions extends DatabaseOptions {
  /**
   * `MIGRATE_ON_START`: apply pending migrations at boot, before serving, under the advisory
   * lock `wp:migrate:<applicationName>` (docs/operations.md § Migrations).
   */
  migrateOnStart?: boolean;
}

/**
 * Provides one initialized TypeORM `DataSource` for the service's own database (migrated first
 * when `migrateOnStart`), registers it as a readiness check and closes it on shutdown. Inject `DataSource` in repositories.
 */
@Module({})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  static forRoot(options: DatabaseModuleOptions): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      providers: [
        {
          provide: DataSource,
          inject: [ReadinessRegistry],
          useFactory: async (readiness: ReadinessRegistry) => {
            const dataSource = createDataSource(options);
            await dataSource.initialize();
            if (options.migrateOnStart) {
              const service = options.applicationName ?? 'service';
              const applied = await runMigrationsLocked(dataSource, `wp:migrate:${service}`);
              new Logger('Migrations').log(`${applied.length} migration(s) applied at start`);
            }
            readiness.register('database', async () => {
              await dataSource.query('SELECT 1');
            });
            return dataSource;
          },
        },
      ],
      exports: [DataSource],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}
