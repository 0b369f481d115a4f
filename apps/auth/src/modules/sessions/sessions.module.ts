import { Module } from '@nestjs/common';
import { AesGcmEnvelope } from '@wp/security';
import { AUTH_CONFIG, type AuthConfig } from '../../config/auth.config.js';
import { PasswordsModule } from '../passwords/passwords.module.js';
import { RateLimitsModule } from '../rate-limits/rate-limits.module.js';
import { SentinelModule } from '../sentinel/sentinel.module.js';
import { UsersRepositoryModule } from '../users/users-repository.module.js';
import { LoginService } from './login.service.js';
import { OAuthController } from './oauth.controller.js';
import { RefreshHints } from './refresh-hints.js';
import { RefreshService } from './refresh.service.js';
import { SessionsRepository } from './sessions.repository.js';
import { SessionsService } from './sessions.service.js';
import { TokenService } from './token.service.js';

@Module({
  imports: [PasswordsModule, RateLimitsModule, UsersRepositoryModule, SentinelModule],
  controllers: [OAuthController],
  providers: [
    SessionsRepository,
    SessionsService,
    TokenService,
    LoginService,
    RefreshService,
    { provide: RefreshHints, useFactory: () => new RefreshHints() },
    {
      provide: AesGcmEnvelope,
      inject: [AUTH_CONFIG],
      useFactory: (config: AuthConfig) => AesGcmEnvelope.fromConfig(config.SECRETS_ENCRYPTION_KEY),
    },
  ],
  exports: [SessionsService, TokenService],
})
export class SessionsModule {}
