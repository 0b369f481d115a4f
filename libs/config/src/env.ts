// `@wp/config/env`: the configuration readers without the Nest module — no `@nestjs/common`
// loaded. For one-shot commands such as the operator CLI's `migrations:status`, where loading
// Nest took most of the run (docs/operations.md § Operator CLI). `@wp/config` re-exports it all.
export * from './load-config.js';
export * from './fields.js';
export * from './platform.config.js';
