import {
  AdvancedConsoleLogger,
  type DataSource,
  type DataSourceOptions,
  type EntitySchema,
  type LoggerOptions,
  type MixedList,
  type ObjectLiteral,
  type QueryRunner,
} from 'typeorm';
import { TRANSACTION_CONFLICT_SQLSTATES } from '@wp/http';
import { RetryingDataSource } from './retrying-data-source.js';
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
  /**
   * SQLSTATEs the service raises on purpose for business outcomes (e.g. the wallet ledger's
   * `WL001` insufficient funds): such failures are answered, not logged as failed queries.
   */
  quietErrorCodes?: string[];
}

/** TypeORM's console logger, minus failed queries whose SQLSTATE is expected. */
class QuietErrorsLogger extends AdvancedConsoleLogger {
  constructor(
    options: LoggerOptions,
    private readonly quiet: ReadonlySet<string>,
  ) {
    super(options);
  }

  override logQueryError(
    error: string,
    query: string,
    parameters?: unknown[] | ObjectLiteral,
    queryRunner?: QueryRunner,
  ): void {
    const code = (error as unknown as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && this.quiet.has(code)) return;
    super.logQueryError(error, query, parameters, queryRunner);
  }
}

/**
 * A PostgreSQL DataSource with the platform's settings: snake_case names, migrations only
 * (never `synchronize`), UTC timestamps, bounded pool and statement timeout, and transactions
 * retried when they are deadlock or serialization victims ({@link RetryingDataSource}).
 */
export function createDataSource(options: DatabaseOptions): DataSource {
  const logging: LoggerOptions = options.logging ? ['query', 'error'] : ['error'];
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
    logging,
    // Deadlock and serialization victims are run again (RetryingDataSource): not errors to log.
    logger: new QuietErrorsLogger(
      logging,
      new Set([...TRANSACTION_CONFLICT_SQLSTATES, ...(options.quietErrorCodes ?? [])]),
    ),
    poolSize: options.poolSize ?? 10,
    applicationName: options.applicationName,
    extra: {
      options: '-c timezone=UTC -c statement_timeout=30000',
      idleTimeoutMillis: 30_000,
    },
  };
  return new RetryingDataSource(config);
}
