import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AdminAccessGuard } from './admin-access.guard.js';
import { ApiKeyGuard } from './api-key.guard.js';
import { ApiKeyRegistry } from './api-key.registry.js';
import { JwtAuthGuard } from './jwt-auth.guard.js';
import { RevocationList } from './revocation-list.js';
import { SECURITY_OPTIONS, type SecurityOptions } from './security.options.js';

/**
 * Installs the global guards of every service, in order: Api-Key, then bearer token. Needs the
 * mode's `ApiKeyStore` and `RevocationStore` (libs/platform's backend module). Routes opt out with `@Public()` (no bearer) or `@NoApiKey()` (neither).
 */
@Module({})
export class SecurityModule {
  static forRoot(options: SecurityOptions): DynamicModule {
    return {
      module: SecurityModule,
      global: true,
      providers: [
        { provide: SECURITY_OPTIONS, useValue: options },
        ApiKeyRegistry,
        RevocationList,
        AdminAccessGuard,
        { provide: APP_GUARD, useClass: ApiKeyGuard },
        { provide: APP_GUARD, useClass: JwtAuthGuard },
      ],
      exports: [SECURITY_OPTIONS, ApiKeyRegistry, RevocationList, AdminAccessGuard],
    };
  }
}
