import { Global, Module } from '@nestjs/common';
import { OrganizationsRepository } from './organizations.repository.js';
import { ProjectsRepository } from './projects.repository.js';

/**
 * The organization and project tables' repositories, global: every feature hangs off these
 * rows (access checks, members, keys, passes, settings), and project rows carry counters and
 * versions that several features keep. They sit in the lowest feature layer so that no feature
 * needs the organizations or projects endpoints' modules to reach them
 * (docs/architecture.md § Inner layering).
 */
@Global()
@Module({
  providers: [OrganizationsRepository, ProjectsRepository],
  exports: [OrganizationsRepository, ProjectsRepository],
})
export class TenantsModule {}
