import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createHttpApp } from '@wp/http';
import { PinoLogger } from '@wp/observability';
import type { GatewayConfig } from './config/gateway.config.js';
import { installDocs } from './docs/docs.setup.js';
import { GatewayModule } from './gateway.module.js';
import { installProxy } from './proxy/proxy.setup.js';

/** The gateway application with its proxy routes installed, not yet listening (main and tests). */
export async function createGatewayApp(config: GatewayConfig): Promise<NestFastifyApplication> {
  const app = await createHttpApp(GatewayModule.forRoot(config), {
    bodyLimit: config.HTTP_BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    strictTransportSecurity: config.STRICT_TRANSPORT_SECURITY,
    lenientJsonParser: false,
    // Above Node's 16 KB header limit: a long path is 431 at worst, never a gateway 414.
    maxParamLength: 16_384,
  });
  app.useLogger(app.get(PinoLogger));
  await installProxy(app, config);
  installDocs(app, config);
  return app;
}
