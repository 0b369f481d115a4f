import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createServiceApp } from '@wp/platform';
import { OrgAppModule } from './app.module.js';
import type { OrgConfig } from './config/org.config.js';

/** The org service application, not yet listening (main and tests). */
export function createOrgApp(config: OrgConfig): Promise<NestFastifyApplication> {
  return createServiceApp(OrgAppModule.forRoot(config), {
    config,
    service: 'org',
    globalPrefix: 'v1/api',
  });
}
