export * from './email.js';
export * from './is-email-address.js';
export * from './look-alikes.js';
export * from './phone.js';
export * from './text.js';
export * from './username.js';
