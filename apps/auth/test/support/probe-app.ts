import { Controller, Get, Module, type DynamicModule } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig, platformSchema, type PlatformConfig } from '@wp/config';
import { createServiceApp, PlatformModule } from '@wp/platform';
import { CurrentPrincipal, type Principal } from '@wp/security';
import type { TestEnvironment } from '@wp/testing';
import { authDataSource } from '../../src/database/data-source.js';

/** A bearer-guarded route of "another service", answering who the token belongs to. */
@Controller('probe')
class ProbeController {
  @Get('whoami')
  whoami(@CurrentPrincipal() principal: Principal): { id: string; sid: string } {
    return { id: principal.id, sid: principal.sessionId };
  }
}

@Module({})
class ProbeModule {
  static forRoot(config: PlatformConfig, databaseUrl: string): DynamicModule {
    return {
      module: ProbeModule,
      imports: [
        PlatformModule.forRoot({
          service: 'probe',
          config,
          database: { url: databaseUrl, entities: [], migrations: [] },
        }),
      ],
      controllers: [ProbeController],
    };
  }
}

/**
 * Another service of the platform as org or wallet would be: built on `PlatformModule` (the
 * shared Api-Key and JWT guards, deny-list check), same Redis prefix and JWT public key as the
 * auth service of `env`, its own database. Serves `GET /v1/api/probe/whoami`.
 */
export async function startProbeApp(env: TestEnvironment): Promise<NestFastifyApplication> {
  const databaseUrl = await env.prepareDatabase('probe', authDataSource);
  const config = loadConfig(platformSchema, env.env);
  const app = await createServiceApp(ProbeModule.forRoot(config, databaseUrl), {
    config,
    globalPrefix: 'v1/api',
  });
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return app;
}
