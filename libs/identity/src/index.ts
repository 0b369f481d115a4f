export * from './keys.js';
export * from './is-email-address.js';
export * from './look-alikes.js';
export * from './username.js';
