import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createServiceApp, type ServiceAppOptions } from '@wp/platform';
import * as openApiMetadata from './openapi-metadata.js';
import { AuthAppModule } from './app.module.js';
import type { AuthConfig } from './config/auth.config.js';
import { installOAuthTokenRequestParsing } from './modules/sessions/oauth-token-request.js';

/** The auth service application, not yet listening (main and tests). */
export async function createAuthApp(
  config: AuthConfig,
  overrides: Partial<ServiceAppOptions> = {},
): Promise<NestFastifyApplication> {
  const app = await createServiceApp(AuthAppModule.forRoot(config), {
    config,
    service: 'auth',
    openApiMetadata,
    ...overrides,
    globalPrefix: 'v1/api',
  });
  await installOAuthTokenRequestParsing(app);
  return app;
}
