import { Module } from '@nestjs/common';
import { SsoCodesModule } from '../federation/sso-codes.module.js';
import { NotificationsModule } from '../notifications/notifications.module.js';
import { RateLimitsModule } from '../rate-limits/rate-limits.module.js';
import { SessionsModule } from '../sessions/sessions.module.js';
import { UsersRepositoryModule } from '../accounts/users-repository.module.js';
import { ActivationCodes } from './activation-codes.js';
import { ActivationController } from './activation.controller.js';
import { ActivationRepository } from './activation.repository.js';
import { ActivationService } from './activation.service.js';

@Module({
  imports: [
    UsersRepositoryModule,
    SessionsModule,
    NotificationsModule,
    RateLimitsModule,
    SsoCodesModule,
  ],
  controllers: [ActivationController],
  providers: [ActivationCodes, ActivationRepository, ActivationService],
  exports: [ActivationService],
})
export class ActivationModule {}
