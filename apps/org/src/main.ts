import 'reflect-metadata';
import { loadConfig } from '@wp/config';
import { runService, startMain } from '@wp/platform';
import { createOrgApp } from './org.app.js';
import { orgConfigSchema } from './config/org.config.js';

startMain('org', () =>
  runService({
    service: 'org',
    loadConfig: () => loadConfig(orgConfigSchema),
    createApp: createOrgApp,
    listen: (c) => ({ port: c.ORG_PORT, host: c.ORG_HOST }),
  }),
);
