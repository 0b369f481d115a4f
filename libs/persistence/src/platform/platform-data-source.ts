import type { DataSource } from 'typeorm';
import { createDataSource } from '../data-source.js';
import { PlatformStores1796000000000 } from './migrations/1796000000000-platform-stores.js';
import { TenantPermissionVersion1796100000000 } from './migrations/1796100000000-tenant-permission-version.js';

/**
 * Migrations of the platform database, in order. To add a store (docs/architecture.md § Two
 * modes, "Adding a store"): a new migration here with its table, then its class.
 */
export const PLATFORM_MIGRATIONS = [
  PlatformStores1796000000000,
  TenantPermissionVersion1796100000000,
];

/** The platform database as migrations see it (no entities: the stores speak SQL). */
export function platformDataSource(url: string): DataSource {
  return createDataSource({
    url,
    entities: [],
    migrations: PLATFORM_MIGRATIONS,
    applicationName: 'platform-migrate',
  });
}
