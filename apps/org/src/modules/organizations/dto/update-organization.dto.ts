import { Type } from 'class-transformer';
import { Equals, IsObject, IsString, ValidateNested } from 'class-validator';
import { MayBeAbsent } from '@wp/http';
import { OrganizationAttributesDto } from './create-organization.dto.js';

export class UpdateOrganizationDataDto {
  @MayBeAbsent()
  @Equals('organization')
  type?: 'organization';

  /** When sent, must equal the path id (409 `ORGANIZATION_ID_MISMATCH`). */
  @MayBeAbsent()
  @IsString()
  id?: string;

  @IsObject()
  @ValidateNested()
  @Type(() => OrganizationAttributesDto)
  attributes!: OrganizationAttributesDto;
}

/** Body of `PATCH /organizations/{id}`: `{data: {attributes: {name}}}` (`type`, `id` optional). */
export class UpdateOrganizationDto {
  @IsObject()
  @ValidateNested()
  @Type(() => UpdateOrganizationDataDto)
  data!: UpdateOrganizationDataDto;
}
