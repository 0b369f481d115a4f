import { Module } from '@nestjs/common';
import { MembershipsHandlers } from './memberships.handlers.js';
import { MembershipsRepository } from './memberships.repository.js';
import { PermissionFreshness } from '@wp/messaging';

@Module({
  providers: [MembershipsRepository, MembershipsHandlers, PermissionFreshness],
  exports: [MembershipsRepository, PermissionFreshness],
})
export class MembershipsModule {}
