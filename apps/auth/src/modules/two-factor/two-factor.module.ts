import { Module } from '@nestjs/common';
import { PasswordsModule } from '../passwords/passwords.module.js';
import { RateLimitsModule } from '../rate-limits/rate-limits.module.js';
import { UsersRepositoryModule } from '../accounts/users-repository.module.js';
import { TwoFactorAccount } from './two-factor-account.js';
import { TwoFactorCoreModule } from './two-factor-core.module.js';
import { TwoFactorEnrolmentService } from './two-factor-enrolment.service.js';
import { TwoFactorManagementService } from './two-factor-management.service.js';
import { TwoFactorController } from './two-factor.controller.js';

/** The signed-in user's two-factor routes (`/users/me/two_factor…`). */
@Module({
  imports: [TwoFactorCoreModule, UsersRepositoryModule, PasswordsModule, RateLimitsModule],
  controllers: [TwoFactorController],
  providers: [TwoFactorAccount, TwoFactorEnrolmentService, TwoFactorManagementService],
})
export class TwoFactorModule {}
