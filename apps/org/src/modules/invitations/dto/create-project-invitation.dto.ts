import { Type } from 'class-transformer';
import { Equals, IsBoolean, IsIn, IsObject, MaxLength, ValidateNested } from 'class-validator';
import { MayBeAbsent } from '@wp/http';
import { INVITATION_ROLES, type InvitationRole } from '@wp/contracts';
import { EmailAddressField } from '../../../common/member-fields.js';
import { LowerCase } from '../../../common/transforms.js';

const roleMessage = { message: `must be one of ${INVITATION_ROLES.join(', ')}` };

/** Grant fields of a project invitation, accepted at the top level and in `data.attributes`. */
export class ProjectInvitationGrantDto {
  /** Default `member`. */
  @MayBeAbsent()
  @LowerCase()
  @IsIn(INVITATION_ROLES, roleMessage)
  projectRole?: InvitationRole;

  /** Organization role on acceptance; default the project role; ignored when `projectOnly`. */
  @MayBeAbsent()
  @LowerCase()
  @IsIn(INVITATION_ROLES, roleMessage)
  orgRole?: InvitationRole;

  /** Default false. */
  @MayBeAbsent()
  @IsBoolean({ message: 'must be true or false' })
  projectOnly?: boolean;
}

export class ProjectInvitationAttributesDto extends ProjectInvitationGrantDto {
  @MaxLength(254)
  @EmailAddressField()
  email!: string;
}

export class ProjectInvitationDataDto {
  @Equals('membershipInvitation', { message: 'must be membershipInvitation' })
  type!: 'membershipInvitation';

  @IsObject()
  @ValidateNested()
  @Type(() => ProjectInvitationAttributesDto)
  attributes!: ProjectInvitationAttributesDto;
}

/**
 * Body of `POST P/{id}/invitations` (docs/api.md § Projects): `data.type` = `membershipInvitation`,
 * `data.attributes.email`; `projectRole` (default `member`), `orgRole`, `projectOnly` at the top
 * level or in `data.attributes` (docs/architecture.md § Request bodies).
 */
export class CreateProjectInvitationDto extends ProjectInvitationGrantDto {
  @IsObject()
  @ValidateNested()
  @Type(() => ProjectInvitationDataDto)
  data!: ProjectInvitationDataDto;
}
