import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createServiceApp } from '@wp/platform';
import { WalletAppModule } from './app.module.js';
import { exactJson } from './common/exact-json.js';
import type { WalletConfig } from './config/wallet.config.js';

/**
 * The wallet service application, not yet listening (main and tests). Replies are written by
 * {@link exactJson}, so amounts leave as the exact decimal the ledger holds.
 */
export async function createWalletApp(config: WalletConfig): Promise<NestFastifyApplication> {
  const app = await createServiceApp(WalletAppModule.forRoot(config), {
    config,
    service: 'wallet',
    globalPrefix: 'v1/api',
  });
  app
    .getHttpAdapter()
    .getInstance()
    .setReplySerializer((payload) => exactJson(payload));
  return app;
}
