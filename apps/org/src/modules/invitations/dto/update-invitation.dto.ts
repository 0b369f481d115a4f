import { Type } from 'class-transformer';
import { Equals, IsIn, IsObject, IsOptional, ValidateNested } from 'class-validator';
import { INVITATION_ROLES, type InvitationRole } from '@wp/contracts';
import { LowerCase } from '../../../common/transforms.js';

export class UpdateInvitationAttributesDto {
  @LowerCase()
  @IsIn(INVITATION_ROLES, { message: `must be one of ${INVITATION_ROLES.join(', ')}` })
  orgRole!: InvitationRole;
}

export class UpdateInvitationDataDto {
  @IsOptional()
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
