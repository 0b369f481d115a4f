import { Module } from '@nestjs/common';
import { SsoCodesModule } from '../federation/sso-codes.module.js';
import { NotificationsModule } from '../notifications/notifications.module.js';
import { PasswordsModule } from '../passwords/passwords.module.js';
import { RateLimitsModule } from '../rate-limits/rate-limits.module.js';
import { SessionsModule } from '../sessions/sessions.module.js';
import { UsersRepositoryModule } from '../accounts/users-repository.module.js';
import { PasswordChangeService } from './password-change.service.js';
import { PasswordResetController } from './password-reset.controller.js';
import { PasswordResetRepository } from './password-reset.repository.js';
import { PasswordResetService } from './password-reset.service.js';

@Module({
  imports: [
    UsersRepositoryModule,
    PasswordsModule,
    SessionsModule,
    NotificationsModule,
    RateLimitsModule,
    SsoCodesModule,
  ],
  controllers: [PasswordResetController],
  providers: [PasswordResetRepository, PasswordResetService, PasswordChangeService],
})
export class PasswordResetModule {}
