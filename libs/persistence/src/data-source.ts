import { DataSource, type DataSourceOptions, type MixedList, type EntitySchema } from 'typeorm';
import { SnakeNamingStrategy } from './snake-naming.strategy.js';

export interface DatabaseOptions {
  /** `postgres://user@host:port/database` */
  url: string;
  entities: MixedList<string | (new () => unknown) | EntitySchema>;
  migrations: MixedList<string | (new () => unknown)>;
  /** Connections in the pool (default 10). */
  poolSize?: number;
  /** Application name shown in pg_stat_activity. */
  applicationName?: string;
  logging?: boolean;
}

/**
 * A PostgreSQL DataSource with the platform's settings: snake_case names, migrations only
 * (never `synchronize`), UTC timestamps, bounded pool and statement timeout.
 */
export function createDataSource(options: DatabaseOptions): DataSource {
  const config: DataSourceOptions = {
    type: 'postgres',
    url: options.url,
    entities: options.entities,
    migrations: options.migrations,
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    namingStrategy: new SnakeNamingStrategy(),
    synchronize: false,
    migrationsRun: false,
    logging: options.logging ? ['query', 'error'] : ['error'],
    poolSize: options.poolSize ?? 10,
    applicationName: options.applicationName,
    extra: {
      options: '-c timezone=UTC -c statement_timeout=30000',
      idleTimeoutMillis: 30_000,
    },
  };
  return new DataSource(config);
}
