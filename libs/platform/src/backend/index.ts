export * from './stores.modules.js';
export * from './platform-backend.js';
