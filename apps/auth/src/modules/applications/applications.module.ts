import { Module } from '@nestjs/common';
import { ApplicationsRepository } from './applications.repository.js';
import { ApplicationsService } from './applications.service.js';
import { AuthStoreRebuild } from './auth-store-rebuild.js';

/**
 * Client applications and the Api-Key registry, and auth's rebuild of the shared stores
 * (`AuthStoreRebuild`: registry and deny-list entries).
 */
@Module({
  providers: [ApplicationsRepository, ApplicationsService, AuthStoreRebuild],
  exports: [ApplicationsService],
})
export class ApplicationsModule {}
