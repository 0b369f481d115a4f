export * from './client.js';
export * from './analytics.js';
export * from './errors.js';
export * from './tokens.js';
export * from './session.js';
export * from './settings.js';
export * from './cache.js';
export * from './ids.js';
export type { paths, components } from './schema.js';
