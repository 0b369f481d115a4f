export * from './log-format.js';
export * from './logging.module.js';
export * from './metrics.js';
export * from './health.js';
export * from './observability.module.js';
export { Logger as PinoLogger } from 'nestjs-pino';
export * from './metrics-server.js';
export * from './startup-phases.js';
export * from './periodic-jobs.js';
