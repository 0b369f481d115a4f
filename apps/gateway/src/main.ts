import 'reflect-metadata';
import { loadConfig } from '@wp/config';
import { runService, startMain } from '@wp/platform';
import { gatewayConfigSchema } from './config/gateway.config.js';
import { createGatewayApp } from './gateway.app.js';

startMain('gateway', () =>
  runService({
    service: 'gateway',
    loadConfig: () => loadConfig(gatewayConfigSchema),
    createApp: createGatewayApp,
    listen: (c) => ({ port: c.GATEWAY_PORT, host: c.GATEWAY_HOST }),
  }),
);
