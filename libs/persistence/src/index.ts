export * from './snake-naming.strategy.js';
export * from './data-source.js';
export * from './database-admin.js';
export * from './database.module.js';
export * from './prepared-query.js';
export * from './redis.module.js';
export * from './upsert-if-newer.js';
export { Redis } from 'ioredis';
export * from './platform/index.js';
