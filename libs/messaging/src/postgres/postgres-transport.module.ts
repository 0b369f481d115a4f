import {
  Inject,
  Logger,
  Module,
  type DynamicModule,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { ReadinessRegistry, startupPhases } from '@wp/observability';
import type { PgBoss } from 'pg-boss';
import { EventTransport } from '../event-transport.js';
import { RpcTransport } from '../rpc-transport.js';
import { createPgBoss } from './pg-boss.factory.js';
import { PG_BOSS, PgBossTransport } from './pg-boss.transport.js';
import { PgRpcTransport } from './pg-rpc.transport.js';
import { PgSignalTransport } from './pg-signal.transport.js';
import { SignalTransport } from '../signal-transport.js';
import { stopOutboxRelay } from '../outbox-relay.js';
import { ConsumerMetrics } from '../messaging.metrics.js';

export interface PostgresTransportOptions {
  /** `PLATFORM_DATABASE_URL`. */
  url: string;
  /** The service, shown in `pg_stat_activity`. */
  service: string;
}

/**
 * Embedded mode's transports, in the platform database: events on pg-boss, request/reply on
 * `rpc_request`/`rpc_response` rows woken by `NOTIFY`, signals on `NOTIFY` alone. Needs `PlatformDatabaseModule` (its pool,
 * `LISTEN` session and required readiness check `platform_database` cover this module too; the
 * bus's own pool is the `degraded` check `bus`). Import through
 * `MessagingModule.forRoot({ transports })`.
 */
@Module({})
export class PostgresTransportModule implements OnApplicationShutdown {
  constructor(
    @Inject(PG_BOSS) private readonly boss: PgBoss,
    private readonly moduleRef: ModuleRef,
  ) {}

  static forRoot(options: PostgresTransportOptions): DynamicModule {
    return {
      module: PostgresTransportModule,
      providers: [
        {
          provide: PG_BOSS,
          inject: [ReadinessRegistry],
          useFactory: async (readiness: ReadinessRegistry) => {
            const logger = new Logger('PgBoss');
            const boss = createPgBoss(options.url, `${options.service}:bus`);
            boss.on('error', (error: Error) => logger.warn(error.message));
            await startupPhases.track('pg-boss', () => boss.start());
            // Degraded, not required: the outbox keeps events while the bus's own pool is stuck
            // (the platform database itself is the stores' required check).
            readiness.register(
              'bus',
              async () => {
                await boss.getDb().executeSql('SELECT 1');
              },
              'degraded',
            );
            return boss;
          },
        },
        ConsumerMetrics,
        { provide: EventTransport, useClass: PgBossTransport },
        { provide: RpcTransport, useClass: PgRpcTransport },
        { provide: SignalTransport, useClass: PgSignalTransport },
      ],
      exports: [PG_BOSS, EventTransport, RpcTransport, SignalTransport],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await stopOutboxRelay(this.moduleRef);
    await this.boss.stop({ graceful: true, timeout: 5000, close: true }).catch(() => undefined);
  }
}
