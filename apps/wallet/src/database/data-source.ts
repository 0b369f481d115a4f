import { createDataSource } from '@wp/persistence';
import { MESSAGING_ENTITIES } from '@wp/messaging';
import { WALLET_MIGRATIONS } from '../migrations/index.js';
import { WALLET_ENTITIES } from './entities.js';

/** The wallet database as migrations and the TypeORM CLI see it. */
export function walletDataSource(url: string) {
  return createDataSource({
    url,
    entities: [...WALLET_ENTITIES, ...MESSAGING_ENTITIES],
    migrations: WALLET_MIGRATIONS,
    applicationName: 'wallet-migrate',
  });
}
