import { migrateMain } from '@wp/platform';
import { walletDataSource } from './database/data-source.js';

migrateMain('wallet', walletDataSource);
