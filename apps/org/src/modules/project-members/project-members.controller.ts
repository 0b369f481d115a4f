import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiResponse } from '@nestjs/swagger';
import { document, IntIdPipe, UuidPipe, type Document, type Resource } from '@wp/http';
import { AgentAccess, CurrentPrincipal, type Principal } from '@wp/security';
import { eitherForm, requireEitherForm } from '../../common/body-fields.js';
import { optionalBody } from '../../common/optional-body.js';
import { toInvitationResource } from '../invitations/invitation.serializer.js';
import { RequiredRoleBodyDto, RoleBodyDto } from '../members/dto/change-role.dto.js';
import {
  toProjectMemberResource,
  type ProjectMemberAttributes,
} from '../projects/project.serializer.js';
import { AddProjectMemberDto } from './dto/add-project-member.dto.js';
import { projectGrant } from '../memberships/project-grant.js';
import { ProjectMembersService } from './project-members.service.js';

type MemberDocument = Document<Resource<ProjectMemberAttributes>>;

/**
 * Project members and access (docs/api.md § Projects, P =
 * /organizations/{organizationId}/projects). 404 when the organization or project is not visible to
 * the caller; 403 `FORBIDDEN` without `project.manageMembers` on the managing routes.
 */
@Controller('organizations/:organizationId/projects/:projectId')
export class ProjectMembersController {
  constructor(private readonly members: ProjectMembersService) {}

  /** `GET P/{id}/users`: `users` with project `role`, `accessDenied`, `organizationRole`. */
  @Get('users')
  @AgentAccess()
  @ApiOperation({ summary: "List a project's members" })
  async list(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('projectId', IntIdPipe) projectId: number,
  ): Promise<Document<Resource<ProjectMemberAttributes>[]>> {
    const rows = await this.members.list(principal, organizationId, projectId);
    return document(rows.map(toProjectMemberResource));
  }

  /**
   * `POST P/{id}/add_user` → 201; `meta.result` = `member_added` (`data`: the member) or
   * `invitation_sent` (`data`: the project invitation).
   */
  @Post('add_user')
  @HttpCode(201)
  @ApiOperation({ summary: 'Add a member to a project' })
  async add(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('projectId', IntIdPipe) projectId: number,
    @Body() dto: AddProjectMemberDto,
  ): Promise<Document<Resource>> {
    const attributes = dto.data.attributes;
    const grant = projectGrant(
      requireEitherForm(attributes.role, dto.role, 'role'),
      eitherForm(attributes.organization_role, dto.organization_role),
      eitherForm(attributes.project_only, dto.project_only) ?? false,
    );
    const result = await this.members.add(
      principal,
      organizationId,
      projectId,
      attributes.email,
      grant,
    );
    const data =
      result.kind === 'member_added'
        ? toProjectMemberResource(result.member)
        : toInvitationResource(result.invitation);
    return document(data as Resource, { meta: { result: result.kind } });
  }

  /** `PATCH P/{id}/members/{userId}/role` (body `role`) → 200 with the member. */
  @Patch('members/:userId/role')
  @ApiOperation({ summary: "Change a member's project role" })
  async changeRole(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('projectId', IntIdPipe) projectId: number,
    @Param('userId', UuidPipe) userId: string,
    @Body() dto: RequiredRoleBodyDto,
  ): Promise<MemberDocument> {
    const role = requireEitherForm(dto.data?.attributes?.role, dto.role, 'role');
    const member = await this.members.changeRole(
      principal,
      organizationId,
      projectId,
      userId,
      role,
    );
    return document(toProjectMemberResource(member));
  }

  /** `DELETE P/{id}/remove_user/{userId}` → 204. */
  @Delete('remove_user/:userId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove a member from a project' })
  async remove(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('projectId', IntIdPipe) projectId: number,
    @Param('userId', UuidPipe) userId: string,
  ): Promise<void> {
    await this.members.remove(principal, organizationId, projectId, userId);
  }

  /** `POST P/{id}/deny_access/{userId}` → 200 with the member (`accessDenied: true`). */
  @Post('deny_access/:userId')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Deny a member access to a project',
    description:
      'User has access → access denied: the project membership (and its role) and the ' +
      'organization membership are kept; the project disappears for the user on their next ' +
      'request, until `restore_access`. Needs `project.manageMembers` (effective project ADMIN ' +
      'or OWNER). An organization OWNER or ADMIN cannot be denied: they see every project ' +
      'through their organization role, so denying them answers 422 ' +
      '`CANNOT_DENY_ORGANIZATION_ADMIN`, whoever asks and whether or not they are an explicit ' +
      'project member — lower their organization role first. Order of the checks: 404 (caller ' +
      'cannot see the project), 403 `FORBIDDEN`, 422 `CANNOT_CHANGE_OWN_ROLE` (oneself), 422 ' +
      '`CANNOT_DENY_ORGANIZATION_ADMIN`, 404 `MEMBER_NOT_FOUND`, 403 ' +
      '`INSUFFICIENT_PERMISSIONS` (a member whose project role is above the caller’s), 409 ' +
      '`ACCESS_ALREADY_DENIED`.',
  })
  @ApiResponse({ status: 200, description: 'The member, `accessDenied: true`.' })
  async deny(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('projectId', IntIdPipe) projectId: number,
    @Param('userId', UuidPipe) userId: string,
  ): Promise<MemberDocument> {
    const member = await this.members.deny(principal, organizationId, projectId, userId);
    return document(toProjectMemberResource(member));
  }

  /**
   * `POST P/{id}/restore_access/{userId}` (optional `role`, top level or `data.attributes`)
   * → 200 with the member.
   */
  @Post('restore_access/:userId')
  @HttpCode(200)
  @ApiBody({ type: RoleBodyDto, required: false })
  @ApiOperation({ summary: "Restore a member's access to a project" })
  async restore(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('projectId', IntIdPipe) projectId: number,
    @Param('userId', UuidPipe) userId: string,
    @Body() body: unknown,
  ): Promise<MemberDocument> {
    const dto = await optionalBody(RoleBodyDto, body);
    const member = await this.members.restore(
      principal,
      organizationId,
      projectId,
      userId,
      eitherForm(dto.data?.attributes?.role, dto.role),
    );
    return document(toProjectMemberResource(member));
  }
}
