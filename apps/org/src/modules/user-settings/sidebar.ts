import { Injectable } from '@nestjs/common';
import { effectiveProjectRole, type Role } from '@wp/contracts';
import type { Organization } from '../tenants/organization.entity.js';
import { OrganizationsRepository } from '../tenants/organizations.repository.js';
import type { Project } from '../tenants/project.entity.js';
import { ProjectsRepository } from '../tenants/projects.repository.js';
import type { PinRow } from './user-settings.repository.js';

/** A project of the sidebar with the caller's effective role (`effectiveProjectRole`). */
export interface SidebarProject {
  project: Project;
  role: Role;
}

/** One organization of the sidebar, everything the caller may see of it. */
export interface SidebarOrganization {
  organization: Organization;
  /** The caller's organization role; null for a project-only member. */
  role: Role | null;
  /** The two-factor policy shuts the caller out: `meta.can` grants nothing. */
  twoFactorBlocked: boolean;
  /** Accessible projects, by name (case-insensitive), then id. */
  projects: SidebarProject[];
  /** Pinned accessible projects in pinned order; positions renumbered 0..n-1. */
  pins: { project: Project; position: number }[];
}

/** The live navigation data of a user: organizations oldest first. */
export interface Sidebar {
  organizations: SidebarOrganization[];
}

/**
 * Computes the sidebar from org's own tables on every read (nothing cached), so a new project,
 * a role change, a removed membership, a deleted project or a denied access shows on the next
 * request. Two queries whatever the number of organizations and projects: the organizations
 * the user sees (members and project-only members, `OrganizationsRepository.findForUser`) and
 * the projects of all of them with the user's standing
 * (`ProjectsRepository.findVisibleInOrganizations`), filtered by the permission table's
 * `effectiveProjectRole` — the same rule as the access checks of every project endpoint.
 */
@Injectable()
export class SidebarBuilder {
  constructor(
    private readonly organizations: OrganizationsRepository,
    private readonly projects: ProjectsRepository,
  ) {}

  /**
   * @param pins every stored pin of the user; those not accessible any more are left out.
   * @param twoFactorSession the caller's session counts as two factors (a passkey sign-in):
   *   the two-factor policy shuts them out of nothing (`twoFactorBlocked` false)
   */
  async build(userId: string, pins: PinRow[], twoFactorSession = false): Promise<Sidebar> {
    const rows = await this.organizations.findForUser(userId, twoFactorSession);
    const standing = await this.projects.findVisibleInOrganizations(
      userId,
      rows.map((r) => r.organization.id),
    );
    const byOrganization = new Map<number, SidebarProject[]>();
    for (const row of standing) {
      const role = effectiveProjectRole(row);
      if (role === null) continue;
      const list = byOrganization.get(row.project.organizationId) ?? [];
      list.push({ project: row.project, role });
      byOrganization.set(row.project.organizationId, list);
    }
    return {
      organizations: rows.map(({ organization, role, twoFactorBlocked }) => {
        const projects = byOrganization.get(organization.id) ?? [];
        const byId = new Map(projects.map((p) => [p.project.id, p.project]));
        const pinned = pins
          .filter((pin) => pin.organizationId === organization.id && byId.has(pin.projectId))
          .sort((a, b) => a.position - b.position || a.projectId - b.projectId)
          .map((pin, position) => ({ project: byId.get(pin.projectId)!, position }));
        return {
          organization,
          role,
          twoFactorBlocked: twoFactorBlocked ?? false,
          projects,
          pins: pinned,
        };
      }),
    };
  }
}

/** Whether the sidebar shows an organization. */
export function sidebarHasOrganization(sidebar: Sidebar, organizationId: number): boolean {
  return sidebar.organizations.some((o) => o.organization.id === organizationId);
}

/** Whether the sidebar shows a project (in any organization). */
export function sidebarHasProject(sidebar: Sidebar, projectId: number): boolean {
  return sidebar.organizations.some((o) => o.projects.some((p) => p.project.id === projectId));
}
