import { Injectable } from '@nestjs/common';
import type { Role } from '@wp/contracts';
import { ProjectsRepository } from '../tenants/projects.repository.js';
import { MembershipEvents } from './membership-events.js';
import { ProjectMembersRepository } from './project-members.repository.js';

export interface ProjectMembershipKey {
  organizationId: number;
  projectId: number;
  userId: string;
}

/**
 * Every write to `project_membership` goes through here, in the caller's transaction, so that
 * each one publishes `org.membership.changed` (project level, strictly increasing version) and
 * keeps the project's `members_count` and `last_activity_at` right. Rules are the callers'.
 */
@Injectable()
export class ProjectMemberships {
  constructor(
    private readonly members: ProjectMembersRepository,
    private readonly projects: ProjectsRepository,
    private readonly events: MembershipEvents,
  ) {}

  /** Adds a member with access. */
  async add(key: ProjectMembershipKey, role: Role): Promise<void> {
    const version = await this.events.changed({ ...key, role, accessDenied: false });
    await this.members.insert({ ...key, role, accessDenied: false, version });
    await this.projects.recountMembers(key.projectId);
  }

  /** Sets role and access of an existing member (role change, deny, restore). */
  async set(
    key: ProjectMembershipKey,
    state: { role: Role; accessDenied: boolean },
  ): Promise<void> {
    const version = await this.events.changed({ ...key, ...state });
    await this.members.update(key.projectId, key.userId, { ...state, version });
    await this.projects.recountMembers(key.projectId);
  }

  /** Removes a member (`role: null` event). */
  async remove(key: ProjectMembershipKey, recount = true): Promise<void> {
    await this.members.delete(key.projectId, key.userId);
    await this.events.changed({ ...key, role: null, accessDenied: false });
    if (recount) await this.projects.recountMembers(key.projectId);
  }

  /** Removes every membership a user holds in an organization's projects (leaving the organization). */
  async removeAllInOrganization(organizationId: number, userId: string): Promise<void> {
    const memberships = await this.members.findByOrganizationUser(organizationId, userId);
    for (const m of memberships) {
      await this.remove({ organizationId, projectId: m.projectId, userId });
    }
  }

  /**
   * Announces the end of every membership of a project that is being deleted (`role: null`
   * each; the rows go with the project, ON DELETE CASCADE), then takes the organization
   * permission version of the deletion itself, which also ends what organization OWNERs and
   * ADMINs could do with the project (`MembershipEvents.organizationWithdrawal`).
   * @returns that version, for `org.project.deleted` to carry
   * @throws DomainError 503 `UNAVAILABLE` when the version store does not answer
   */
  async endAllOfProject(organizationId: number, projectId: number): Promise<number> {
    const memberships = await this.members.findAllOfProject(projectId);
    for (const m of memberships) {
      await this.events.changed({
        organizationId,
        projectId,
        userId: m.userId,
        role: null,
        accessDenied: false,
      });
    }
    return this.events.organizationWithdrawal(organizationId);
  }
}
