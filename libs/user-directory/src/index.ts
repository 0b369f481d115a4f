export * from './directory-user.columns.js';
export * from './user-directory.js';
export * from './user-directory.handlers.js';
