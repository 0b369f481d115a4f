export * from './test-env.js';
export * from './wait-for.js';
export * from './sinks/mailbox.js';
export * from './sinks/mime.js';
export * from './sinks/smtp-sink.js';
export * from './sinks/http-sink.js';
export * from './route-audit.js';
export * from './access-token.js';
