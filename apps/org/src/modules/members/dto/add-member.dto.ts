import { Type } from 'class-transformer';
import { Equals, IsIn, IsObject, MaxLength, ValidateNested } from 'class-validator';
import { ROLES, type Role } from '@wp/contracts';
import { IsEmailAddress } from '@wp/identity';
import { Trim, UpperCase } from '../../../common/transforms.js';

export class AddMemberAttributesDto {
  @Trim()
  @MaxLength(254)
  @IsEmailAddress()
  email!: string;

  @UpperCase()
  @IsIn(ROLES, { message: `must be one of ${ROLES.join(', ')}` })
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
