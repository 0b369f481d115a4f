import { migrateMain } from '@wp/platform';
import { analyticsDataSource } from './database/data-source.js';

migrateMain('analytics', analyticsDataSource);
