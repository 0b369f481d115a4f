export * from './webhook-event-types.js';
export * from './webhook-event.js';
export * from './webhook-payloads.js';
export * from './webhook-catalog.js';
export * from './webhook-from-audit.js';
export * from './webhook-from-bus.js';
export * from './webhook-platform-events.js';
