import { migrateMain } from '@wp/platform';
import { authDataSource } from './database/data-source.js';

migrateMain('auth', authDataSource);
