import { Type } from 'class-transformer';
import { IsObject, IsString, ValidateNested } from 'class-validator';
import { MayBeAbsent, SchemaRule } from '@wp/http';
import type { Role } from '@wp/contracts';
import { eitherFormRequired } from '../../../common/body-fields.js';
import { RoleField } from '../../../common/member-fields.js';

export class RoleAttributesDto {
  @MayBeAbsent()
  @RoleField()
  role?: Role;
}

export class RoleDataDto {
  @MayBeAbsent()
  @IsString()
  type?: string;

  @MayBeAbsent()
  @IsObject()
  @ValidateNested()
  @Type(() => RoleAttributesDto)
  attributes?: RoleAttributesDto;
}

/**
 * Body carrying one role: `{role}` as the contract writes it, or `{data: {attributes: {role}}}`
 * (docs/architecture.md § Request bodies). Used by `PATCH …/members/{userId}/role` (required) and
 * `POST …/restore_access/{userId}` (optional).
 */
export class RoleBodyDto {
  @MayBeAbsent()
  @RoleField()
  role?: Role;

  @MayBeAbsent()
  @IsObject()
  @ValidateNested()
  @Type(() => RoleDataDto)
  data?: RoleDataDto;
}

/**
 * {@link RoleBodyDto} where the role is required (`PATCH …/members/{userId}/role`): the same
 * fields and validation; the handler refuses a body without a role in either place (400).
 */
@SchemaRule(eitherFormRequired('role'))
export class RequiredRoleBodyDto extends RoleBodyDto {}
