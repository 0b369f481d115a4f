import {
  Inject,
  Logger,
  Module,
  type DynamicModule,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { METRICS_REGISTRY, ReadinessRegistry, startupPhases } from '@wp/observability';
import { Counter, Gauge, type Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { createDataSource, type DatabaseOptions } from './data-source.js';
import { runMigrationsLocked } from './database-admin.js';
import { RetryingDataSource } from './retrying-data-source.js';
import { transactionContext } from './transaction-context.js';
import { listenToConflicts } from './transaction-retry.js';

export interface DatabaseModuleOptions extends DatabaseOptions {
  /**
   * `MIGRATE_ON_START`: apply pending migrations at boot, before serving, under the advisory
   * lock `wp:migrate:<applicationName>` (docs/operations.md § Migrations).
   */
  migrateOnStart?: boolean;
}

/**
 * Provides one initialized TypeORM `DataSource` for the service's own database (migrated first
 * when `migrateOnStart`), registers it as a readiness check and closes it on shutdown, and the
 * `TxHost` (the plugin's `TransactionHost`) bound to it under the name `applicationName`: repositories
 * use `txHost.tx`, commands open `txHost.withTransaction(...)` (docs/decisions.md § Transactions
 * in the request context).
 */
@Module({})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  static forRoot(options: DatabaseModuleOptions): DynamicModule {
    const context = transactionContext(options.applicationName ?? 'service');
    return {
      module: DatabaseModule,
      global: true,
      imports: context.imports,
      providers: [
        ...context.providers,
        {
          provide: DataSource,
          inject: [ReadinessRegistry, METRICS_REGISTRY],
          useFactory: async (readiness: ReadinessRegistry, registry: Registry) => {
            const dataSource = createDataSource(options);
            await startupPhases.track('database', () => dataSource.initialize());
            if (options.migrateOnStart) {
              const service = options.applicationName ?? 'service';
              const applied = await startupPhases.track('migrations', () =>
                runMigrationsLocked(dataSource, `wp:migrate:${service}`),
              );
              new Logger('Migrations').log(`${applied.length} migration(s) applied at start`);
            }
            readiness.register('database', async () => {
              await dataSource.query('SELECT 1');
            });
            registerPoolMetrics(registry, dataSource);
            if (dataSource instanceof RetryingDataSource) {
              registerConflictMetrics(registry, dataSource);
            }
            return dataSource;
          },
        },
      ],
      exports: [DataSource, ...context.exports],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

/** The node-postgres pool under TypeORM's PostgreSQL driver. */
interface PgPoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/**
 * `db_pool_connections{state="in_use"|"idle"}` and `db_pool_waiting_requests` (queries waiting
 * for a connection) of the service's own database pool, read on every scrape
 * (docs/operations.md § Metrics). A steady `waiting` above 0 means the pool is too small
 * (`WALLET_DATABASE_POOL_SIZE`) or queries too slow.
 */
function registerPoolMetrics(registry: Registry, dataSource: DataSource): void {
  const pool = () => (dataSource.driver as unknown as { master?: PgPoolCounts }).master;
  new Gauge({
    name: 'db_pool_connections',
    help: 'Connections of the database pool by state',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const p = pool();
      if (!p) return;
      this.set({ state: 'in_use' }, p.totalCount - p.idleCount);
      this.set({ state: 'idle' }, p.idleCount);
    },
  });
  new Gauge({
    name: 'db_pool_waiting_requests',
    help: 'Queries waiting for a free connection of the database pool',
    registers: [registry],
    collect() {
      this.set(pool()?.waitingCount ?? 0);
    },
  });
}

/**
 * `db_transaction_conflicts_total{outcome="retried"|"gave_up"}`: transactions PostgreSQL rolled
 * back as deadlock or serialization victims, run again or given up (then answered 503)
 * (docs/operations.md § Metrics).
 */
function registerConflictMetrics(registry: Registry, dataSource: RetryingDataSource): void {
  const conflicts = new Counter({
    name: 'db_transaction_conflicts_total',
    help: 'Transactions rolled back as deadlock or serialization victims, by outcome',
    labelNames: ['outcome'],
    registers: [registry],
  });
  conflicts.inc({ outcome: 'retried' }, 0);
  conflicts.inc({ outcome: 'gave_up' }, 0);
  listenToConflicts(dataSource.transactionRetry, {
    retried: () => conflicts.inc({ outcome: 'retried' }),
    gaveUp: () => conflicts.inc({ outcome: 'gave_up' }),
  });
}
