import { Module } from '@nestjs/common';
import { AnalyticsStore } from './analytics-store.js';
import { PostgresAnalyticsStore } from './postgres/postgres-analytics.store.js';

/**
 * Binds {@link AnalyticsStore} to its PostgreSQL implementation. A ClickHouse implementation
 * binds here instead (docs/analytics.md § The ClickHouse path); nothing else changes.
 */
@Module({
  providers: [{ provide: AnalyticsStore, useClass: PostgresAnalyticsStore }],
  exports: [AnalyticsStore],
})
export class StorageModule {}
