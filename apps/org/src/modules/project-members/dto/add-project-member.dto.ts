import { Type } from 'class-transformer';
import { Equals, IsBoolean, IsIn, IsObject, MaxLength, ValidateNested } from 'class-validator';
import { MayBeAbsent, SchemaRule } from '@wp/http';
import { ROLES, type Role } from '@wp/contracts';
import { IsEmailAddress } from '@wp/identity';
import { eitherFormRequired } from '../../../common/body-fields.js';
import { Trim, UpperCase } from '../../../common/transforms.js';

const roleMessage = { message: `must be one of ${ROLES.join(', ')}` };

/** The grant fields, accepted at the top level and in `data.attributes`. */
export class ProjectGrantFieldsDto {
  @MayBeAbsent()
  @UpperCase()
  @IsIn(ROLES, roleMessage)
  role?: Role;

  @MayBeAbsent()
  @UpperCase()
  @IsIn(ROLES, roleMessage)
  organization_role?: Role;

  @MayBeAbsent()
  @IsBoolean({ message: 'must be true or false' })
  project_only?: boolean;
}

export class AddProjectMemberAttributesDto extends ProjectGrantFieldsDto {
  @Trim()
  @MaxLength(254)
  @IsEmailAddress()
  email!: string;
}

export class AddProjectMemberDataDto {
  @Equals('users', { message: 'must be users' })
  type!: 'users';

  @IsObject()
  @ValidateNested()
  @Type(() => AddProjectMemberAttributesDto)
  attributes!: AddProjectMemberAttributesDto;
}

/**
 * Body of `POST P/{id}/add_user` (docs/api.md § Projects): `data.type` = `users`,
 * `data.attributes.email`; `role` required; `organization_role` (≥ `role`, required unless
 * `project_only`); `project_only` (default false). The last three at the top level or in
 * `data.attributes` (docs/architecture.md § Request bodies).
 */
@SchemaRule(eitherFormRequired('role'))
export class AddProjectMemberDto extends ProjectGrantFieldsDto {
  @IsObject()
  @ValidateNested()
  @Type(() => AddProjectMemberDataDto)
  data!: AddProjectMemberDataDto;
}
