import { createDataSource } from '@wp/persistence';
import { MESSAGING_ENTITIES } from '@wp/messaging';
import { AUTH_MIGRATIONS } from '../migrations/index.js';
import { AUTH_ENTITIES } from './entities.js';

/** The auth database as migrations and the TypeORM CLI see it. */
export function authDataSource(url: string) {
  return createDataSource({
    url,
    entities: [...AUTH_ENTITIES, ...MESSAGING_ENTITIES],
    migrations: AUTH_MIGRATIONS,
    applicationName: 'auth-migrate',
  });
}
