export * from './platform.module.js';
export * from './service-app.js';
export * from './run-service.js';
export * from './migrate-main.js';
export * from './activity-recorder.js';
