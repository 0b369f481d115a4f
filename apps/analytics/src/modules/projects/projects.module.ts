import { Module } from '@nestjs/common';
import { StorageModule } from '../storage/storage.module.js';
import { BasicAuthGuard } from './basic-auth.guard.js';
import { ProjectKeyCache } from './project-key-cache.js';
import { ProjectPurger } from './project-purger.js';
import { ProjectsHandlers } from './projects.handlers.js';
import { ProjectsRepository } from './projects.repository.js';

/** Projects and their key pairs as analytics learns them from events; Basic authentication. */
@Module({
  imports: [StorageModule],
  providers: [ProjectsRepository, ProjectKeyCache, ProjectsHandlers, BasicAuthGuard, ProjectPurger],
  exports: [ProjectKeyCache, BasicAuthGuard],
})
export class ProjectsModule {}
