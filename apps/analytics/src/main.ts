import 'reflect-metadata';
import { loadConfig } from '@wp/config';
import { runService, startMain } from '@wp/platform';
import { createAnalyticsApp } from './analytics.app.js';
import { analyticsConfigSchema } from './config/analytics.config.js';

startMain('analytics', () =>
  runService({
    service: 'analytics',
    loadConfig: () => loadConfig(analyticsConfigSchema),
    createApp: createAnalyticsApp,
    listen: (c) => ({ port: c.ANALYTICS_PORT, host: c.ANALYTICS_HOST }),
  }),
);
