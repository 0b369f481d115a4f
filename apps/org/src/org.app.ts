import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createServiceApp, type ServiceAppOptions } from '@wp/platform';
import * as openApiMetadata from './openapi-metadata.js';
import { OrgAppModule } from './app.module.js';
import type { OrgConfig } from './config/org.config.js';

/** The org service application, not yet listening (main and tests). */
export function createOrgApp(
  config: OrgConfig,
  overrides: Partial<ServiceAppOptions> = {},
): Promise<NestFastifyApplication> {
  return createServiceApp(OrgAppModule.forRoot(config), {
    config,
    service: 'org',
    openApiMetadata,
    ...overrides,
    globalPrefix: 'v1/api',
  });
}
