import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { roleFromInvitation } from '@wp/contracts';
import { document, IntIdPipe, UuidPipe, type Document, type Resource } from '@wp/http';
import { CurrentPrincipal, type Principal } from '@wp/security';
import { eitherForm } from '../../common/body-fields.js';
import { projectGrant } from '../memberships/project-grant.js';
import { CreateProjectInvitationDto } from './dto/create-project-invitation.dto.js';
import { toInvitationResource, type InvitationAttributes } from './invitation.serializer.js';
import { InvitationsService } from './invitations.service.js';

type InvitationDocument = Document<Resource<InvitationAttributes>>;

/**
 * Project invitations (docs/api.md § Projects, P = /organizations/{organizationId}/projects).
 * Every route needs `project.manageMembers`; an invitation that also grants an organization
 * role (not `projectOnly`) needs `organization.manageMembers` as well. Accepted through
 * `/me/accept_invitation/{id}`.
 */
@Controller('organizations/:organizationId/projects/:projectId/invitations')
export class ProjectInvitationsController {
  constructor(private readonly invitations: InvitationsService) {}

  /**
   * `POST P/{id}/invitations` → 201; 422 `redirect_to_add_member` for an email with an account.
   * `orgRole` defaults to the project role and must not be lower (400).
   */
  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Invite someone to a project' })
  async create(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('projectId', IntIdPipe) projectId: number,
    @Body() dto: CreateProjectInvitationDto,
  ): Promise<InvitationDocument> {
    const attributes = dto.data.attributes;
    const projectRole = eitherForm(attributes.projectRole, dto.projectRole) ?? 'member';
    const projectOnly = eitherForm(attributes.projectOnly, dto.projectOnly) ?? false;
    const orgRole = eitherForm(attributes.orgRole, dto.orgRole) ?? projectRole;
    const grant = projectGrant(
      roleFromInvitation(projectRole),
      roleFromInvitation(orgRole),
      projectOnly,
      { organizationRole: 'orgRole' },
    );
    const invitation = await this.invitations.invite(
      principal,
      { organizationId, projectId },
      attributes.email,
      { orgRole: grant.organizationRole, projectRole: grant.role, projectOnly },
      this.invitations.projectScope(grant.organizationRole),
    );
    return document(toInvitationResource(invitation));
  }

  /** `GET P/{id}/invitations`: pending invitations of the project. */
  @Get()
  @ApiOperation({ summary: "List a project's invitations" })
  async list(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('projectId', IntIdPipe) projectId: number,
  ): Promise<Document<Resource<InvitationAttributes>[]>> {
    const list = await this.invitations.list(
      principal,
      { organizationId, projectId },
      this.invitations.projectScope(null),
    );
    return document(list.map((i) => toInvitationResource(i)));
  }

  /** `POST P/{id}/invitations/{invitationId}/resend` → 200; 429 beyond the resend budget. */
  @Post(':invitationId/resend')
  @HttpCode(200)
  @ApiOperation({ summary: 'Send a project invitation again' })
  async resend(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('projectId', IntIdPipe) projectId: number,
    @Param('invitationId', UuidPipe) invitationId: string,
  ): Promise<InvitationDocument> {
    const invitation = await this.invitations.resend(
      principal,
      { organizationId, projectId },
      invitationId,
      this.invitations.projectScope(null),
    );
    return document(toInvitationResource(invitation));
  }

  /** `DELETE P/{id}/invitations/{invitationId}` → 204. */
  @Delete(':invitationId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Cancel a project invitation' })
  async cancel(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('projectId', IntIdPipe) projectId: number,
    @Param('invitationId', UuidPipe) invitationId: string,
  ): Promise<void> {
    await this.invitations.cancel(
      principal,
      { organizationId, projectId },
      invitationId,
      this.invitations.projectScope(null),
    );
  }
}
