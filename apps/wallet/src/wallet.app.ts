import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createServiceApp } from '@wp/platform';
import { WalletAppModule } from './app.module.js';
import type { WalletConfig } from './config/wallet.config.js';

/** The wallet service application, not yet listening (main and tests). */
export function createWalletApp(config: WalletConfig): Promise<NestFastifyApplication> {
  return createServiceApp(WalletAppModule.forRoot(config), { config, globalPrefix: 'v1/api' });
}
