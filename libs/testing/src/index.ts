export * from './test-env.js';
export * from './wait-for.js';
