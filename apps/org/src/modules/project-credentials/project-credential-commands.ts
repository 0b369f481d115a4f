import { Injectable } from '@nestjs/common';
import { TxHost } from '@wp/persistence';
import type { Principal } from '@wp/security';
import { AccessService } from '../access/access.service.js';
import type { Project } from '../tenants/project.entity.js';
import type { ProjectCredentialColumns } from './project-credential.columns.js';
import type { ProjectCredentialsRepository } from './project-credentials.repository.js';

/**
 * The permission rules API keys and LLM keys share (docs/api.md § Projects `api_keys`,
 * `llm_api_keys`): a change needs `project.manageKeys` (effective project ADMIN or OWNER), a list
 * across the organization `organization.viewKeys` (ADMIN or OWNER). What a change does besides
 * (events, audit entries, withdrawing a key) stays with each feature's service.
 */
@Injectable()
export class ProjectCredentialCommands {
  constructor(
    private readonly txHost: TxHost,
    private readonly access: AccessService,
  ) {}

  /**
   * Runs `work` in one transaction after checking `project.manageKeys` with the project row
   * locked, so changes to one project's credentials happen one at a time.
   * @throws 404 `NOT_FOUND` (organization or project not visible); 403 `FORBIDDEN`
   */
  change<R>(
    principal: Principal,
    organizationId: number,
    projectId: number,
    work: (project: Project) => Promise<R>,
  ): Promise<R> {
    return this.txHost.withTransaction(async () => {
      const { project } = await this.access.projectWith(
        principal,
        organizationId,
        projectId,
        'project.manageKeys',
        { lock: true },
      );
      return work(project);
    });
  }

  /**
   * Every credential of `repository`'s table across the organization's projects.
   * @throws 404 `NOT_FOUND`; 403 `FORBIDDEN` below ADMIN
   */
  async listForOrganization<T extends ProjectCredentialColumns>(
    principal: Principal,
    organizationId: number,
    repository: ProjectCredentialsRepository<T>,
  ): Promise<T[]> {
    await this.access.organizationWith(principal, organizationId, 'organization.viewKeys');
    return repository.listForOrganization(organizationId);
  }
}
