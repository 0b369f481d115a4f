import { Type } from 'class-transformer';
import { Equals, IsIn, IsObject, ValidateNested } from 'class-validator';
import { MayBeAbsent } from '@wp/http';
import { INVITATION_ROLES, type InvitationRole } from '@wp/contracts';
import { LowerCase } from '../../../common/transforms.js';

export class UpdateInvitationAttributesDto {
  @LowerCase()
  @IsIn(INVITATION_ROLES, { message: `must be one of ${INVITATION_ROLES.join(', ')}` })
  orgRole!: InvitationRole;
}

export class UpdateInvitationDataDto {
  @MayBeAbsent()
  @Equals('membershipInvitation', { message: 'must be membershipInvitation' })
  type?: 'membershipInvitation';

  @IsObject()
  @ValidateNested()
  @Type(() => UpdateInvitationAttributesDto)
  attributes!: UpdateInvitationAttributesDto;
}

/** Body of `PATCH /organizations/{id}/invitations/{invitationId}`: `data.attributes.orgRole`. */
export class UpdateInvitationDto {
  @IsObject()
  @ValidateNested()
  @Type(() => UpdateInvitationDataDto)
  data!: UpdateInvitationDataDto;
}
