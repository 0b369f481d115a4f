import { Module } from '@nestjs/common';
import { InvitationsModule } from '../invitations/invitations.module.js';
import { UserSettingsModule } from '../user-settings/user-settings.module.js';
import { DirectoryModule } from '../users/directory.module.js';
import { MemberCleanup } from './member-cleanup.js';
import { MembersController } from './members.controller.js';
import { MembersService } from './members.service.js';

@Module({
  imports: [InvitationsModule, DirectoryModule, UserSettingsModule],
  controllers: [MembersController],
  providers: [MembersService, MemberCleanup],
})
export class MembersModule {}
