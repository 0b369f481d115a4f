import { migrateMain } from '@wp/platform';
import { orgDataSource } from './database/data-source.js';

migrateMain('org', orgDataSource);
