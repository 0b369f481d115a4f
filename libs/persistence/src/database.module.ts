import { Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { ReadinessRegistry } from '@wp/observability';
import { DataSource } from 'typeorm';
import { createDataSource, type DatabaseOptions } from './data-source.js';

/**
 * Provides one initialized TypeORM `DataSource` for the service's own database, registers it
 * as a readiness check and closes it on shutdown. Inject `DataSource` in repositories.
 */
@Module({})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  static forRoot(options: DatabaseOptions): DynamicModule {
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
