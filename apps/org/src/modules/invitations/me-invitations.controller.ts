import { Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { document, UuidPipe, type Document, type Resource } from '@wp/http';
import { CurrentPrincipal, type Principal } from '@wp/security';
import { toInvitationResource, type InvitationAttributes } from './invitation.serializer.js';
import { InvitationsService } from './invitations.service.js';

/**
 * The invitee's side (docs/api.md § Organizations, `/me/…`; States and transitions, Invitation).
 * Only invitations sent to the caller's account email (case-insensitive) are visible; any other
 * id is a 404.
 */
@Controller('me')
export class MeInvitationsController {
  constructor(private readonly invitations: InvitationsService) {}

  /** `GET /me/pending_invitations`: with `organizationName` and `projectName`. */
  @Get('pending_invitations')
  @ApiOperation({ summary: 'List the invitations waiting for the signed-in user' })
  async pending(
    @CurrentPrincipal() principal: Principal,
  ): Promise<Document<Resource<InvitationAttributes>[]>> {
    const rows = await this.invitations.pendingFor(principal);
    return document(
      rows.map((r) =>
        toInvitationResource(r.invitation, {
          organizationName: r.organizationName,
          projectName: r.projectName,
        }),
      ),
    );
  }

  /** `POST /me/accept_invitation/{id}` → 200 with the invitation (`status: accepted`). */
  @Post('accept_invitation/:invitationId')
  @HttpCode(200)
  @ApiOperation({ summary: 'Accept an invitation' })
  async accept(
    @CurrentPrincipal() principal: Principal,
    @Param('invitationId', UuidPipe) invitationId: string,
  ): Promise<Document<Resource<InvitationAttributes>>> {
    return document(toInvitationResource(await this.invitations.accept(principal, invitationId)));
  }

  /** `DELETE /me/reject_invitation/{id}` → 200 with the invitation (`status: rejected`). */
  @Delete('reject_invitation/:invitationId')
  @ApiOperation({ summary: 'Reject an invitation' })
  async reject(
    @CurrentPrincipal() principal: Principal,
    @Param('invitationId', UuidPipe) invitationId: string,
  ): Promise<Document<Resource<InvitationAttributes>>> {
    return document(toInvitationResource(await this.invitations.reject(principal, invitationId)));
  }
}
