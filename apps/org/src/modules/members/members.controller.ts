import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { document, IntIdPipe, UuidPipe, type Document, type Resource } from '@wp/http';
import { CurrentPrincipal, type Principal } from '@wp/security';
import { requireEitherForm } from '../../common/body-fields.js';
import { toInvitationResource } from '../invitations/invitation.serializer.js';
import {
  toMemberUserResource,
  type MemberUserAttributes,
} from '../organizations/organization.serializer.js';
import { AddMemberDto } from './dto/add-member.dto.js';
import { RequiredRoleBodyDto } from './dto/change-role.dto.js';
import { MembersService } from './members.service.js';

/**
 * Organization members (docs/api.md § Organizations). 404 for non-members on every route; 403
 * `FORBIDDEN` for MEMBER and VIEWER on the managing routes.
 */
@Controller('organizations/:organizationId')
export class MembersController {
  constructor(private readonly members: MembersService) {}

  /** `GET /organizations/{id}/users`: `{data: [users]}` with `attributes.role`. */
  @Get('users')
  @ApiOperation({ summary: "List an organization's members" })
  async list(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
  ): Promise<Document<Resource<MemberUserAttributes>[]>> {
    const members = await this.members.list(principal, organizationId);
    return document(members.map(toMemberUserResource));
  }

  /**
   * `POST /organizations/{id}/add_user` → 201. `meta.result` says what happened:
   * `member_added` (`data` is the user with their role) or `invitation_sent` (`data` is the
   * `membershipInvitation`, for an email without an account).
   */
  @Post('add_user')
  @HttpCode(201)
  @ApiOperation({ summary: 'Add a member to an organization' })
  async add(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Body() dto: AddMemberDto,
  ): Promise<Document<Resource>> {
    const { email, role } = dto.data.attributes;
    const result = await this.members.add(principal, organizationId, email, role);
    const data =
      result.kind === 'member_added'
        ? toMemberUserResource(result.member)
        : toInvitationResource(result.invitation);
    return document(data as Resource, { meta: { result: result.kind } });
  }

  /** `PATCH /organizations/{id}/members/{userId}/role` (body `role`) → 200 with the member. */
  @Patch('members/:userId/role')
  @ApiOperation({ summary: "Change a member's organization role" })
  async changeRole(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('userId', UuidPipe) userId: string,
    @Body() dto: RequiredRoleBodyDto,
  ): Promise<Document<Resource<MemberUserAttributes>>> {
    const role = requireEitherForm(dto.data?.attributes?.role, dto.role, 'role');
    const member = await this.members.changeRole(principal, organizationId, userId, role);
    return document(toMemberUserResource(member));
  }

  /** `DELETE /organizations/{id}/remove_user/{userId}` → 204. */
  @Delete('remove_user/:userId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove a member from an organization' })
  async remove(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('userId', UuidPipe) userId: string,
  ): Promise<void> {
    await this.members.remove(principal, organizationId, userId);
  }
}
