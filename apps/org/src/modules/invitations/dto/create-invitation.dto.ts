import { Type } from 'class-transformer';
import { Equals, IsIn, IsObject, MaxLength, ValidateNested } from 'class-validator';
import { MayBeAbsent } from '@wp/http';
import { INVITATION_ROLES, type InvitationRole } from '@wp/contracts';
import { EmailAddressField } from '../../../common/member-fields.js';
import { LowerCase } from '../../../common/transforms.js';

export class OrganizationInvitationAttributesDto {
  @MaxLength(254)
  @EmailAddressField()
  email!: string;

  /** Default `member`. Either case accepted; answered lower case. */
  @MayBeAbsent()
  @LowerCase()
  @IsIn(INVITATION_ROLES, { message: `must be one of ${INVITATION_ROLES.join(', ')}` })
  orgRole?: InvitationRole;
}

export class OrganizationInvitationDataDto {
  @Equals('membershipInvitation', { message: 'must be membershipInvitation' })
  type!: 'membershipInvitation';

  @IsObject()
  @ValidateNested()
  @Type(() => OrganizationInvitationAttributesDto)
  attributes!: OrganizationInvitationAttributesDto;
}

/**
 * Body of `POST /organizations/{id}/invitations` (docs/api.md § Organizations):
 * `{data: {type: 'membershipInvitation', attributes: {email, orgRole?}}}`.
 */
export class CreateOrganizationInvitationDto {
  @IsObject()
  @ValidateNested()
  @Type(() => OrganizationInvitationDataDto)
  data!: OrganizationInvitationDataDto;
}
