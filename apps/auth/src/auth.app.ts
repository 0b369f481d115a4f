import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createServiceApp } from '@wp/platform';
import { AuthAppModule } from './app.module.js';
import type { AuthConfig } from './config/auth.config.js';

/** The auth service application, not yet listening (main and tests). */
export function createAuthApp(config: AuthConfig): Promise<NestFastifyApplication> {
  return createServiceApp(AuthAppModule.forRoot(config), {
    config,
    service: 'auth',
    globalPrefix: 'v1/api',
  });
}
