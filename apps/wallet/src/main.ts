import 'reflect-metadata';
import { loadConfig } from '@wp/config';
import { runService, startMain } from '@wp/platform';
import { createWalletApp } from './wallet.app.js';
import { walletConfigSchema } from './config/wallet.config.js';

startMain('wallet', () =>
  runService({
    service: 'wallet',
    loadConfig: () => loadConfig(walletConfigSchema),
    createApp: createWalletApp,
    listen: (c) => ({ port: c.WALLET_PORT, host: c.WALLET_HOST }),
  }),
);
