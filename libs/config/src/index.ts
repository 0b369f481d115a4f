export * from './load-config.js';
export * from './fields.js';
export * from './platform.config.js';
export * from './config.module.js';
