export * from './pg-listener.js';
export * from './platform-database.module.js';
export * from './platform-data-source.js';
