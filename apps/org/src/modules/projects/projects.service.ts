import { Injectable } from '@nestjs/common';
import { TxHost } from '@wp/persistence';
import { agentCanMap, type Role } from '@wp/contracts';
import { Outbox } from '@wp/messaging';
import type { Principal } from '@wp/security';
import { AccessService, actingRole, requireProjectPermission } from '../access/access.service.js';
import type { ProjectApiKey } from '../api-keys/project-api-key.entity.js';
import { ApiKeysRepository } from '../api-keys/api-keys.repository.js';
import { ProjectKeys } from '../api-keys/project-keys.js';
import type { LlmApiKey } from '../llm-keys/llm-api-key.entity.js';
import { LlmKeysRepository } from '../llm-keys/llm-keys.repository.js';
import {
  ProjectMembersRepository,
  type ProjectMemberRow,
} from '../memberships/project-members.repository.js';
import { ProjectMemberships } from '../memberships/project-memberships.js';
import type { SentinelPass } from '../sentinel-passes/sentinel-pass.entity.js';
import { SentinelPassEvents } from '../sentinel-passes/sentinel-pass-events.js';
import { SentinelPassesRepository } from '../sentinel-passes/sentinel-passes.repository.js';
import type { ProjectInclude } from './dto/project-query.dto.js';
import type { ProjectListFilter } from '../tenants/project-list.js';
import type { Project } from '../tenants/project.entity.js';
import { ProjectIdMismatchError } from './projects.errors.js';
import { ProjectsRepository } from '../tenants/projects.repository.js';

/** Note of the key pair every project is created with. */
export const FIRST_KEY_NOTE = 'Default key';

/** A project as the caller sees it, with what `secret`/`include` ask for. */
export interface ProjectView {
  project: Project;
  /** The caller's effective project role; null for an agent (see `can`). */
  role: Role | null;
  /** An agent's `meta.can` (`agentCanMap` of its pass's permissions); users': from `role`. */
  can?: Record<string, Record<string, boolean>>;
  secrets?: { publicKey: string; secretKey: string } | null;
  members?: ProjectMemberRow[];
  apiKeys?: ProjectApiKey[];
  llmApiKeys?: LlmApiKey[];
  sentinelPasses?: SentinelPass[];
}

/**
 * Projects (docs/api.md § Projects; docs/architecture.md § Default project, "Project key pair").
 * One transaction per command, under the organization row lock, with its events:
 * `org.project.created|updated|deleted`, `org.project.keys.changed`, `org.membership.changed`.
 */
@Injectable()
export class ProjectsService {
  constructor(
    private readonly txHost: TxHost,
    private readonly access: AccessService,
    private readonly projects: ProjectsRepository,
    private readonly memberships: ProjectMemberships,
    private readonly members: ProjectMembersRepository,
    private readonly keys: ProjectKeys,
    private readonly apiKeys: ApiKeysRepository,
    private readonly llmKeys: LlmKeysRepository,
    private readonly sentinelPasses: SentinelPassesRepository,
    private readonly sentinelPassEvents: SentinelPassEvents,
    private readonly outbox: Outbox,
  ) {}

  /**
   * Makes a project in the caller's transaction (which holds the organization lock): the
   * creator becomes its OWNER member, its first key pair is made, and it is the default when the
   * organization has none. Used by `POST P` and by organization creation.
   */
  async createInTransaction(input: {
    organizationId: number;
    name: string;
    creatorId: string;
  }): Promise<Project> {
    const isDefault = !(await this.projects.hasDefault(input.organizationId));
    const project = await this.projects.insert({
      organizationId: input.organizationId,
      name: input.name,
      isDefault,
      createdBy: input.creatorId,
    });
    await this.outbox.enqueue('org.project.created', {
      organizationId: project.organizationId,
      projectId: project.id,
      name: project.name,
      isDefault,
      createdBy: input.creatorId,
      createdAt: project.createdAt.toISOString(),
    });
    await this.memberships.add(
      { organizationId: project.organizationId, projectId: project.id, userId: input.creatorId },
      'OWNER',
    );
    await this.keys.create(project, {
      note: FIRST_KEY_NOTE,
      expiresAt: null,
      createdBy: input.creatorId,
    });
    await this.keys.publish(project);
    return (await this.projects.findById(project.id))!;
  }

  /**
   * `POST P`: needs `project.create` (organization ADMIN or OWNER).
   * @throws 404 non-member; 403 `FORBIDDEN`
   */
  async create(
    principal: Principal,
    organizationId: number,
    name: string,
  ): Promise<{ project: Project; role: Role }> {
    return this.txHost.withTransaction(async () => {
      await this.access.organizationWith(principal, organizationId, 'project.create', {
        lock: true,
      });
      const project = await this.createInTransaction({
        organizationId,
        name,
        creatorId: principal.id,
      });
      // The creator is the project's OWNER member (an organization ADMIN with a project OWNER
      // role is effectively OWNER too: `effectiveProjectRole`).
      return { project, role: 'OWNER' };
    });
  }

  /** `GET P`: the projects the caller can access, filtered and ordered in one SQL query. */
  async list(
    principal: Principal,
    organizationId: number,
    filter: ProjectListFilter,
  ): Promise<{ project: Project; role: Role }[]> {
    const access = await this.access.organization(principal, organizationId);
    return this.projects.list(organizationId, principal.id, access.role, filter);
  }

  /**
   * `GET P/{id}` with `secret` (needs `project.viewSecrets`) and `include` (`apiKeys` and
   * `llmApiKeys` need `project.manageKeys`).
   * @throws 404; 403 `FORBIDDEN`
   */
  async get(
    principal: Principal,
    organizationId: number,
    projectId: number,
    options: { secret: boolean; include: ProjectInclude[] },
  ): Promise<ProjectView> {
    const access = await this.access.project(principal, organizationId, projectId);
    const include = new Set(options.include);
    if (options.secret) requireProjectPermission(access, 'project.viewSecrets');
    if (include.has('apiKeys') || include.has('llmApiKeys')) {
      requireProjectPermission(access, 'project.manageKeys');
    }
    if (include.has('sentinelPasses')) requireProjectPermission(access, 'sentinelPass.read');
    const view: ProjectView = { project: access.project, role: access.effectiveRole };
    if (access.agent) view.can = agentCanMap(access.agent.permissions);
    if (options.secret) {
      const first = await this.apiKeys.findOldestUnexpired(projectId);
      view.secrets = first
        ? { publicKey: first.publicKey, secretKey: this.keys.reveal(first) }
        : null;
    }
    if (include.has('users')) view.members = await this.members.findByProject(projectId);
    if (include.has('apiKeys')) view.apiKeys = await this.apiKeys.listForProject(projectId);
    if (include.has('llmApiKeys')) view.llmApiKeys = await this.llmKeys.listForProject(projectId);
    if (include.has('sentinelPasses')) {
      view.sentinelPasses = await this.sentinelPasses.listForProject(projectId);
    }
    return view;
  }

  /**
   * `PATCH P/{id}`: renames (`project.update`); `data.id` must equal the path id.
   * @throws 404; 403 `FORBIDDEN`; 409 `PROJECT_ID_MISMATCH`
   */
  async rename(
    principal: Principal,
    organizationId: number,
    projectId: number,
    body: { id: string; name: string },
  ): Promise<{ project: Project; role: Role }> {
    return this.txHost.withTransaction(async () => {
      const access = await this.access.projectWith(
        principal,
        organizationId,
        projectId,
        'project.update',
        { lock: true },
      );
      if (body.id !== String(projectId)) throw new ProjectIdMismatchError();
      const project = await this.projects.rename(projectId, body.name);
      await this.outbox.enqueue('org.project.updated', {
        organizationId,
        projectId,
        name: project.name,
        isDefault: project.isDefault,
        changedBy: principal.id,
      });
      return { project, role: actingRole(access) };
    });
  }

  /**
   * `DELETE P/{id}`: permanent. Members get `role: null` events, analytics an empty key set,
   * and when it was the default the oldest remaining project becomes the default. The deletion
   * takes an organization permission version (carried by `org.project.deleted`), so no service
   * lets anyone move the project's money once this answers, event delivered or not.
   * @throws 404; 403 `FORBIDDEN`; 503 `UNAVAILABLE` when the deny-list store does not answer
   */
  async delete(principal: Principal, organizationId: number, projectId: number): Promise<void> {
    await this.txHost.withTransaction(async () => {
      const { project } = await this.access.projectWith(
        principal,
        organizationId,
        projectId,
        'project.delete',
        { lock: true },
      );
      const organizationVersion = await this.memberships.endAllOfProject(organizationId, projectId);
      await this.keys.publish(project, { deleted: true });
      await this.sentinelPassEvents.deleteAllOfProject(projectId);
      await this.projects.delete(projectId);
      await this.outbox.enqueue('org.project.deleted', {
        organizationId,
        projectId,
        organizationVersion,
        changedBy: principal.id,
      });
      if (project.isDefault) {
        const next = await this.projects.promoteOldestToDefault(organizationId);
        if (next) {
          await this.outbox.enqueue('org.project.updated', {
            organizationId,
            projectId: next.id,
            name: next.name,
            isDefault: true,
            changedBy: principal.id,
          });
        }
      }
      // Last: analytics refuses the project's key pairs from now on, event or not.
      await this.keys.withdraw(projectId, 'project');
    });
  }
}
