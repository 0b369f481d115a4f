import { Global, Module } from '@nestjs/common';
import { MembershipEvents } from './membership-events.js';
import { MembershipVersionRepository } from './membership-version.repository.js';
import { MembershipsRpc } from './memberships.rpc.js';
import { OrgStoreRebuild } from './org-store-rebuild.js';
import { OrganizationMembersRepository } from './organization-members.repository.js';
import { OrganizationMemberships } from './organization-memberships.js';
import { ProjectMembersRepository } from './project-members.repository.js';
import { ProjectMemberships } from './project-memberships.js';

/**
 * Membership storage and `org.membership.changed` with per-triple versions, shared by every
 * feature that changes members (members, invitations, projects); and org's rebuild of the shared
 * stores (`OrgStoreRebuild`), which restores the permission versions kept here.
 */
@Global()
@Module({
  providers: [
    MembershipVersionRepository,
    MembershipEvents,
    MembershipsRpc,
    OrgStoreRebuild,
    OrganizationMembersRepository,
    OrganizationMemberships,
    ProjectMembersRepository,
    ProjectMemberships,
  ],
  exports: [
    MembershipEvents,
    OrganizationMembersRepository,
    OrganizationMemberships,
    ProjectMembersRepository,
    ProjectMemberships,
  ],
})
export class MembershipsModule {}
