import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { roleFromInvitation } from '@wp/contracts';
import { document, IntIdPipe, UuidPipe, type Document, type Resource } from '@wp/http';
import { CurrentPrincipal, type Principal } from '@wp/security';
import { CreateOrganizationInvitationDto } from './dto/create-invitation.dto.js';
import { UpdateInvitationDto } from './dto/update-invitation.dto.js';
import { toInvitationResource, type InvitationAttributes } from './invitation.serializer.js';
import { InvitationsService } from './invitations.service.js';

type InvitationDocument = Document<Resource<InvitationAttributes>>;

/**
 * Organization invitations (docs/api.md § Organizations). Every route: 404 for non-members,
 * 403 `FORBIDDEN` for members without `organization.manageMembers` (MEMBER, VIEWER).
 */
@Controller('organizations/:organizationId/invitations')
export class OrganizationInvitationsController {
  constructor(private readonly invitations: InvitationsService) {}

  /**
   * `POST /organizations/{id}/invitations` → 201 with the invitation; mails it
   * (`notify.requested`). 422 `redirect_to_add_member` when the email has an account.
   */
  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Invite someone to an organization' })
  async create(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Body() dto: CreateOrganizationInvitationDto,
  ): Promise<InvitationDocument> {
    const { email, orgRole } = dto.data.attributes;
    const invitation = await this.invitations.invite(
      principal,
      { organizationId, projectId: null },
      email,
      { orgRole: roleFromInvitation(orgRole ?? 'member'), projectRole: null, projectOnly: false },
      this.invitations.organizationScope,
    );
    return document(toInvitationResource(invitation));
  }

  /** `GET /organizations/{id}/invitations`: pending invitations (expired ones show `expired`). */
  @Get()
  @ApiOperation({ summary: "List an organization's invitations" })
  async list(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
  ): Promise<Document<Resource<InvitationAttributes>[]>> {
    const list = await this.invitations.list(
      principal,
      { organizationId, projectId: null },
      this.invitations.organizationScope,
    );
    return document(list.map((i) => toInvitationResource(i)));
  }

  /** `POST …/invitations/{invitationId}/resend` → 200; 429 beyond the resend budget. */
  @Post(':invitationId/resend')
  @HttpCode(200)
  @ApiOperation({ summary: 'Send an invitation again' })
  async resend(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('invitationId', UuidPipe) invitationId: string,
  ): Promise<InvitationDocument> {
    const invitation = await this.invitations.resend(
      principal,
      { organizationId, projectId: null },
      invitationId,
      this.invitations.organizationScope,
    );
    return document(toInvitationResource(invitation));
  }

  /** `DELETE …/invitations/{invitationId}` → 204: cancelled. */
  @Delete(':invitationId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Cancel an invitation' })
  async cancel(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('invitationId', UuidPipe) invitationId: string,
  ): Promise<void> {
    await this.invitations.cancel(
      principal,
      { organizationId, projectId: null },
      invitationId,
      this.invitations.organizationScope,
    );
  }

  /** `PATCH …/invitations/{invitationId}` (`data.attributes.orgRole`) → 200. */
  @Patch(':invitationId')
  @ApiOperation({ summary: 'Change the role of an invitation' })
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('invitationId', UuidPipe) invitationId: string,
    @Body() dto: UpdateInvitationDto,
  ): Promise<InvitationDocument> {
    const invitation = await this.invitations.changeOrganizationRole(
      principal,
      organizationId,
      invitationId,
      roleFromInvitation(dto.data.attributes.orgRole),
    );
    return document(toInvitationResource(invitation));
  }
}
