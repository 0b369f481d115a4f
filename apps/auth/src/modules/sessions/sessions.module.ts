import { Module } from '@nestjs/common';
import { SsoCodesModule } from '../federation/sso-codes.module.js';
import { PasswordsModule } from '../passwords/passwords.module.js';
import { RateLimitsModule } from '../rate-limits/rate-limits.module.js';
import { SentinelModule } from '../sentinel/sentinel.module.js';
import { TwoFactorCoreModule } from '../two-factor/two-factor-core.module.js';
import { UsersRepositoryModule } from '../accounts/users-repository.module.js';
import { LoginLookup } from './login-lookup.js';
import { LoginMetrics } from './login.metrics.js';
import { LoginService } from './login.service.js';
import { MfaLoginService } from './mfa-login.service.js';
import { OAuthController } from './oauth.controller.js';
import { RefreshHints } from './refresh-hints.js';
import { RefreshService } from './refresh.service.js';
import { SessionPurgeRepository } from './session-purge.repository.js';
import { SessionsRepository } from './sessions.repository.js';
import { SessionsService } from './sessions.service.js';
import { TokenService } from '../tokens/token.service.js';
import { UserSessionsController } from './user-sessions.controller.js';
import { UserSessionsService } from './user-sessions.service.js';

@Module({
  imports: [
    PasswordsModule,
    RateLimitsModule,
    UsersRepositoryModule,
    SentinelModule,
    TwoFactorCoreModule,
    SsoCodesModule,
  ],
  controllers: [OAuthController, UserSessionsController],
  providers: [
    SessionsRepository,
    SessionPurgeRepository,
    SessionsService,
    TokenService,
    LoginService,
    LoginLookup,
    LoginMetrics,
    MfaLoginService,
    RefreshService,
    UserSessionsService,
    { provide: RefreshHints, useFactory: () => new RefreshHints() },
  ],
  exports: [SessionsService, TokenService],
})
export class SessionsModule {}
