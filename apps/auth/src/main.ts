import 'reflect-metadata';
import { loadConfig } from '@wp/config';
import { runService, startMain } from '@wp/platform';
import { createAuthApp } from './auth.app.js';
import { authConfigSchema } from './config/auth.config.js';

startMain('auth', () =>
  runService({
    service: 'auth',
    loadConfig: () => loadConfig(authConfigSchema),
    createApp: createAuthApp,
    listen: (c) => ({ port: c.AUTH_PORT, host: c.AUTH_HOST }),
  }),
);
