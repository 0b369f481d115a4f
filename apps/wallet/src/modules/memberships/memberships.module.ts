import { Module } from '@nestjs/common';
import { MembershipsHandlers } from './memberships.handlers.js';
import { MembershipsRepository } from './memberships.repository.js';

@Module({
  providers: [MembershipsRepository, MembershipsHandlers],
  exports: [MembershipsRepository],
})
export class MembershipsModule {}
