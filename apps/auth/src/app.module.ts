import { Module, type DynamicModule } from '@nestjs/common';
import { AppConfigModule } from '@wp/config';
import { PlatformModule } from '@wp/platform';
import { AUTH_CONFIG, type AuthConfig } from './config/auth.config.js';
import { AUTH_ENTITIES } from './database/entities.js';
import { AUTH_MIGRATIONS } from './migrations/index.js';
import { ActivationModule } from './modules/activation/activation.module.js';
import { ApplicationsModule } from './modules/applications/applications.module.js';
import { AuditModule } from './modules/audit/audit.module.js';
import { FederationModule } from './modules/federation/federation.module.js';
import { JwksModule } from './modules/jwks/jwks.module.js';
import { NotificationsModule } from './modules/notifications/notifications.module.js';
import { PasswordResetModule } from './modules/password-reset/password-reset.module.js';
import { PasskeysModule } from './modules/passkeys/passkeys.module.js';
import { SessionsModule } from './modules/sessions/sessions.module.js';
import { TwoFactorModule } from './modules/two-factor/two-factor.module.js';
import { UsersModule } from './modules/users/users.module.js';

/**
 * The auth service ({auth_url}): accounts, activation, sessions (and their management),
 * two-factor authentication, passwords, validation, client applications, security events for
 * the organization audit log, and delivery of every service's mail and SMS (`notify.requested`).
 */
@Module({})
export class AuthAppModule {
  static forRoot(config: AuthConfig): DynamicModule {
    return {
      module: AuthAppModule,
      imports: [
        AppConfigModule.forRoot(AUTH_CONFIG, config),
        PlatformModule.forRoot({
          service: 'auth',
          config,
          database: {
            url: config.AUTH_DATABASE_URL,
            entities: AUTH_ENTITIES,
            migrations: AUTH_MIGRATIONS,
          },
          adminAccessTokens: config.ADMIN_ACCESS_TOKENS,
        }),
        AuditModule,
        ApplicationsModule,
        UsersModule,
        ActivationModule,
        SessionsModule,
        TwoFactorModule,
        PasskeysModule,
        PasswordResetModule,
        NotificationsModule,
        JwksModule,
        FederationModule,
      ],
    };
  }
}
