import { Type } from 'class-transformer';
import { Equals, IsBoolean, IsObject, MaxLength, ValidateNested } from 'class-validator';
import { MayBeAbsent, SchemaRule } from '@wp/http';
import type { Role } from '@wp/contracts';
import { eitherFormRequired } from '../../../common/body-fields.js';
import { EmailAddressField, RoleField } from '../../../common/member-fields.js';

/** The grant fields, accepted at the top level and in `data.attributes`. */
export class ProjectGrantFieldsDto {
  @MayBeAbsent()
  @RoleField()
  role?: Role;

  @MayBeAbsent()
  @RoleField()
  organization_role?: Role;

  @MayBeAbsent()
  @IsBoolean({ message: 'must be true or false' })
  project_only?: boolean;
}

export class AddProjectMemberAttributesDto extends ProjectGrantFieldsDto {
  @MaxLength(254)
  @EmailAddressField()
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
