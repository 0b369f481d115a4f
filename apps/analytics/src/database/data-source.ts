import { createDataSource } from '@wp/persistence';
import { MESSAGING_ENTITIES } from '@wp/messaging';
import { ANALYTICS_MIGRATIONS } from '../migrations/index.js';
import { ANALYTICS_ENTITIES } from './entities.js';

/** The analytics database as migrations and the TypeORM CLI see it. */
export function analyticsDataSource(url: string) {
  return createDataSource({
    url,
    entities: [...ANALYTICS_ENTITIES, ...MESSAGING_ENTITIES],
    migrations: ANALYTICS_MIGRATIONS,
    applicationName: 'analytics-migrate',
  });
}
