import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createServiceApp, type ServiceAppOptions } from '@wp/platform';
import * as openApiMetadata from './openapi-metadata.js';
import { WalletAppModule } from './app.module.js';
import { exactJson } from './common/exact-json.js';
import type { WalletConfig } from './config/wallet.config.js';

/**
 * The wallet service application, not yet listening (main and tests). Replies are written by
 * {@link exactJson}, so amounts leave as the exact decimal the ledger holds.
 */
export async function createWalletApp(
  config: WalletConfig,
  overrides: Partial<ServiceAppOptions> = {},
): Promise<NestFastifyApplication> {
  const app = await createServiceApp(WalletAppModule.forRoot(config), {
    config,
    service: 'wallet',
    openApiMetadata,
    ...overrides,
    globalPrefix: 'v1/api',
  });
  app
    .getHttpAdapter()
    .getInstance()
    .setReplySerializer((payload) => exactJson(payload));
  return app;
}
