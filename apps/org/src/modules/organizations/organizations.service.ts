import { Injectable } from '@nestjs/common';
import { TxHost } from '@wp/persistence';
import { effectiveProjectRole, organizationCan, type Role } from '@wp/contracts';
import { Outbox } from '@wp/messaging';
import { sessionHasTwoFactors, type Principal } from '@wp/security';
import { AccessService, requireOrganizationPermission } from '../access/access.service.js';
import {
  OrganizationMembersRepository,
  type MemberRow,
} from '../memberships/organization-members.repository.js';
import { OrganizationMemberships } from '../memberships/organization-memberships.js';
import type { Project } from '../tenants/project.entity.js';
import { ProjectsRepository } from '../tenants/projects.repository.js';
import { ProjectsService } from '../projects/projects.service.js';
import type { OrganizationInclude } from './dto/organization-query.dto.js';
import type { Organization } from '../tenants/organization.entity.js';
import { OrganizationIdMismatchError } from './organizations.errors.js';
import {
  OrganizationsRepository,
  type OrganizationWithRole,
} from '../tenants/organizations.repository.js';

/**
 * Name of the project every new organization starts with (docs/architecture.md § Default project).
 */
export const DEFAULT_PROJECT_NAME = 'Default project';

/** A project with the caller's effective role in it. */
export interface VisibleProject {
  project: Project;
  role: Role;
}

/** One organization as the caller sees it, with what the list or an include asks for. */
export interface OrganizationView {
  organization: Organization;
  role: Role | null;
  /** See `OrganizationWithRole.twoFactorBlocked`. */
  twoFactorBlocked?: boolean;
  projects?: VisibleProject[];
  members?: MemberRow[];
}

@Injectable()
export class OrganizationsService {
  constructor(
    private readonly txHost: TxHost,
    private readonly organizations: OrganizationsRepository,
    private readonly members: OrganizationMembersRepository,
    private readonly projects: ProjectsRepository,
    private readonly projectsService: ProjectsService,
    private readonly access: AccessService,
    private readonly memberships: OrganizationMemberships,
    private readonly outbox: Outbox,
  ) {}

  /**
   * `POST /organizations` (docs/api.md § Organizations): the creator becomes OWNER and a default
   * project is made (with its first key pair, the creator as its OWNER), all in one transaction
   * with `org.organization.created` (the wallet service opens the organization wallet from it),
   * `org.membership.changed`, `org.project.created` and `org.project.keys.changed`.
   */
  async create(principal: Principal, name: string): Promise<OrganizationWithRole> {
    return this.txHost.withTransaction(async () => {
      const organization = await this.organizations.insert(name);
      await this.outbox.enqueue('org.organization.created', {
        organizationId: organization.id,
        name: organization.name,
        createdBy: principal.id,
        createdAt: organization.createdAt.toISOString(),
      });
      await this.memberships.add(
        { organizationId: organization.id, userId: principal.id },
        'OWNER',
      );
      await this.projectsService.createInTransaction({
        organizationId: organization.id,
        name: DEFAULT_PROJECT_NAME,
        creatorId: principal.id,
      });
      return { organization, role: 'OWNER' };
    });
  }

  /**
   * `GET /organizations`: every organization the caller belongs to, each with the projects the
   * caller can access and the members. Three queries whatever the number of organizations.
   */
  async listForUser(principal: Principal): Promise<OrganizationView[]> {
    const rows = await this.organizations.findForUser(
      principal.id,
      sessionHasTwoFactors(principal),
    );
    const ids = rows.map((r) => r.organization.id);
    const [projects, members] = await Promise.all([
      this.visibleProjects(principal.id, ids),
      this.members.findByOrganizations(ids),
    ]);
    const membersByOrganization = groupBy(members, (m) => m.organizationId);
    return rows.map(({ organization, role, twoFactorBlocked }) => ({
      organization,
      role,
      twoFactorBlocked,
      projects: projects.get(organization.id) ?? [],
      // project-only members (no organization role) do not see the organization's members
      members: organizationCan(role, 'organization.read')
        ? (membersByOrganization.get(organization.id) ?? [])
        : [],
    }));
  }

  /**
   * `GET /organizations/{id}` with `include` (`users`, `projects`, `organization_memberships`).
   * @throws OrganizationNotFoundError 404 for a non-member; 403 `FORBIDDEN` when a project-only
   *   member asks for the members
   */
  async get(
    principal: Principal,
    organizationId: number,
    include: OrganizationInclude[],
  ): Promise<OrganizationView> {
    const access = await this.access.organization(principal, organizationId);
    const view: OrganizationView = { organization: access.organization, role: access.role };
    if (include.includes('projects')) {
      view.projects =
        (await this.visibleProjects(principal.id, [organizationId])).get(organizationId) ?? [];
    }
    if (include.includes('users') || include.includes('organization_memberships')) {
      // the same permission as GET …/users: project-only members get 403
      requireOrganizationPermission(access, 'organization.read');
      view.members = await this.members.findByOrganizations([organizationId]);
    }
    return view;
  }

  /**
   * `PATCH /organizations/{id}`: renames (ADMIN or OWNER: `organization.manageSettings`) and
   * announces `org.organization.updated`.
   * @throws 404 non-member, 403 `FORBIDDEN`, 409 `ORGANIZATION_ID_MISMATCH`
   */
  async rename(
    principal: Principal,
    organizationId: number,
    body: { id?: string; name: string },
  ): Promise<OrganizationView> {
    return this.txHost.withTransaction(async () => {
      const access = await this.access.organizationWith(
        principal,
        organizationId,
        'organization.manageSettings',
        { lock: true },
      );
      if (body.id !== undefined && body.id !== String(organizationId)) {
        throw new OrganizationIdMismatchError();
      }
      const organization = await this.organizations.rename(organizationId, body.name);
      await this.outbox.enqueue('org.organization.updated', {
        organizationId,
        name: organization.name,
        changedBy: principal.id,
      });
      return { organization, role: access.role };
    });
  }

  /** Projects the caller can access, by organization, with the effective role (one query). */
  private async visibleProjects(
    userId: string,
    organizationIds: number[],
  ): Promise<Map<number, VisibleProject[]>> {
    const rows = await this.projects.findVisibleInOrganizations(userId, organizationIds);
    const visible: VisibleProject[] = [];
    for (const row of rows) {
      const role = effectiveProjectRole(row);
      if (role !== null) visible.push({ project: row.project, role });
    }
    return groupBy(visible, (v) => v.project.organizationId);
  }
}

function groupBy<T, K>(items: T[], key: (item: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const item of items) {
    const list = out.get(key(item));
    if (list) list.push(item);
    else out.set(key(item), [item]);
  }
  return out;
}
