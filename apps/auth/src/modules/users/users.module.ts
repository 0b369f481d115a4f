import { Module } from '@nestjs/common';
import { ActivationModule } from '../activation/activation.module.js';
import { SsoCodesModule } from '../federation/sso-codes.module.js';
import { PasswordsModule } from '../passwords/passwords.module.js';
import { RateLimitsModule } from '../rate-limits/rate-limits.module.js';
import { SessionsModule } from '../sessions/sessions.module.js';
import { UsersController } from './users.controller.js';
import { UsersRepositoryModule } from '../accounts/users-repository.module.js';
import { UsersRpc } from './users.rpc.js';
import { UsersService } from './users.service.js';

@Module({
  imports: [
    UsersRepositoryModule,
    PasswordsModule,
    SessionsModule,
    ActivationModule,
    RateLimitsModule,
    SsoCodesModule,
  ],
  controllers: [UsersController],
  providers: [UsersService, UsersRpc],
})
export class UsersModule {}
