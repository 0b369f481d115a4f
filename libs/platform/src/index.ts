export * from './platform.module.js';
export * from './service-app.js';
export * from './run-service.js';
export * from './migrate-main.js';
export * from './activity-recorder.js';
export * from './backend/index.js';
export * from './migrate-platform.js';
