export * from './pg-boss.factory.js';
export * from './pg-boss.transport.js';
export * from './pg-rpc.transport.js';
export * from './postgres-transport.module.js';
export * from './pg-signal.transport.js';
