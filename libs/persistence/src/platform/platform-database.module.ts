import { Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { ReadinessRegistry, startupPhases } from '@wp/observability';
import { Pool } from 'pg';
import { PgListener } from './pg-listener.js';

/** The pg `Pool` of the platform database (`@Inject(PLATFORM_POOL) pool: Pool`). */
export const PLATFORM_POOL = Symbol('PLATFORM_POOL');

export interface PlatformDatabaseOptions {
  /** `PLATFORM_DATABASE_URL`. */
  url: string;
  /** Service name, shown in `pg_stat_activity` as `<service>:platform`. */
  service: string;
  /** Connections in the pool (default 4). */
  poolSize?: number;
}

/** A pg pool on the platform database with the platform's session settings. */
export function createPlatformPool(options: PlatformDatabaseOptions): Pool {
  const pool = new Pool({
    connectionString: options.url,
    max: options.poolSize ?? 4,
    application_name: `${options.service}:platform`,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5000,
    options: '-c timezone=UTC -c statement_timeout=10000',
  });
  pool.on('error', () => undefined); // an idle connection died: the pool replaces it
  return pool;
}

/**
 * The shared "platform" database of embedded mode (docs/architecture.md § Two modes): the
 * PostgreSQL database that holds what Redis and NATS hold in services mode (Api-Key registry,
 * deny-list, rate limits, event queues, request/reply). Provides its pool (`PLATFORM_POOL`) and
 * the process's `LISTEN` session (`PgListener`), and registers the readiness check
 * `platform_database`. Its tables come from `PLATFORM_MIGRATIONS`; no service reads another
 * service's own database through it.
 */
@Module({})
export class PlatformDatabaseModule implements OnApplicationShutdown {
  constructor(
    @Inject(PLATFORM_POOL) private readonly pool: Pool,
    private readonly listener: PgListener,
  ) {}

  static forRoot(options: PlatformDatabaseOptions): DynamicModule {
    return {
      module: PlatformDatabaseModule,
      global: true,
      providers: [
        {
          provide: PLATFORM_POOL,
          inject: [ReadinessRegistry],
          useFactory: async (readiness: ReadinessRegistry) => {
            const pool = createPlatformPool(options);
            try {
              await startupPhases.track('platform database', () => pool.query('SELECT 1'));
            } catch (error) {
              await pool.end().catch(() => undefined);
              throw new Error(
                `Cannot connect to the platform database: ${(error as Error).message}`,
                { cause: error },
              );
            }
            readiness.register('platform_database', async () => {
              await pool.query('SELECT 1');
            });
            return pool;
          },
        },
        {
          provide: PgListener,
          useFactory: async () => {
            const listener = new PgListener(options.url, `${options.service}:listen`);
            await startupPhases.track('listen session', () => listener.start());
            return listener;
          },
        },
      ],
      exports: [PLATFORM_POOL, PgListener],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.listener.close();
    await this.pool.end().catch(() => undefined);
  }
}
