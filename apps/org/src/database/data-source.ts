import { createDataSource } from '@wp/persistence';
import { MESSAGING_ENTITIES } from '@wp/messaging';
import { ORG_MIGRATIONS } from '../migrations/index.js';
import { ORG_ENTITIES } from './entities.js';

/** The org database as migrations and the TypeORM CLI see it. */
export function orgDataSource(url: string) {
  return createDataSource({
    url,
    entities: [...ORG_ENTITIES, ...MESSAGING_ENTITIES],
    migrations: ORG_MIGRATIONS,
    applicationName: 'org-migrate',
  });
}
