import { Type } from 'class-transformer';
import { Equals, IsObject, MaxLength, ValidateNested } from 'class-validator';
import type { Role } from '@wp/contracts';
import { EmailAddressField, RoleField } from '../../../common/member-fields.js';

export class AddMemberAttributesDto {
  @MaxLength(254)
  @EmailAddressField()
  email!: string;

  @RoleField()
  role!: Role;
}

export class AddMemberDataDto {
  @Equals('users', { message: 'must be users' })
  type!: 'users';

  @IsObject()
  @ValidateNested()
  @Type(() => AddMemberAttributesDto)
  attributes!: AddMemberAttributesDto;
}

/**
 * Body of `POST /organizations/{id}/add_user` (docs/api.md § Organizations):
 * `{data: {type: 'users', attributes: {email, role}}}`; `role` OWNER, ADMIN, MEMBER or VIEWER
 * (either case accepted).
 */
export class AddMemberDto {
  @IsObject()
  @ValidateNested()
  @Type(() => AddMemberDataDto)
  data!: AddMemberDataDto;
}
