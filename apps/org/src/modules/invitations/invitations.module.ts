import { Module } from '@nestjs/common';
import { DirectoryModule } from '../users/directory.module.js';
import { InvitationAcceptance } from './invitation-acceptance.js';
import { InvitationMailer } from './invitation-mailer.js';
import { InvitationsRepository } from './invitations.repository.js';
import { InvitationsService } from './invitations.service.js';
import { MeInvitationsController } from './me-invitations.controller.js';
import { OrganizationInvitationsController } from './organization-invitations.controller.js';
import { ProjectInvitationsController } from './project-invitations.controller.js';

@Module({
  imports: [DirectoryModule],
  controllers: [
    OrganizationInvitationsController,
    ProjectInvitationsController,
    MeInvitationsController,
  ],
  providers: [InvitationsRepository, InvitationsService, InvitationMailer, InvitationAcceptance],
  exports: [InvitationsService],
})
export class InvitationsModule {}
