import { Type } from 'class-transformer';
import { IsIn, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { ROLES, type Role } from '@wp/contracts';
import { UpperCase } from '../../../common/transforms.js';

export class RoleAttributesDto {
  @IsOptional()
  @UpperCase()
  @IsIn(ROLES, { message: `must be one of ${ROLES.join(', ')}` })
  role?: Role;
}

export class RoleDataDto {
  @IsOptional()
  @IsString()
  type?: string;

  @IsOptional()
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
  @IsOptional()
  @UpperCase()
  @IsIn(ROLES, { message: `must be one of ${ROLES.join(', ')}` })
  role?: Role;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => RoleDataDto)
  data?: RoleDataDto;
}
