import { Module } from '@nestjs/common';
import { InvitationsModule } from '../invitations/invitations.module.js';
import { SidebarBuilder } from './sidebar.js';
import { UserSettingsController } from './user-settings.controller.js';
import { UserSettingsRepository } from './user-settings.repository.js';
import { UserSettingsService } from './user-settings.service.js';

/** docs/api.md § User settings: per-client settings, sidebar, pinned projects, onboarding. */
@Module({
  imports: [InvitationsModule],
  controllers: [UserSettingsController],
  providers: [UserSettingsRepository, UserSettingsService, SidebarBuilder],
  exports: [UserSettingsRepository],
})
export class UserSettingsModule {}
