import { Type } from 'class-transformer';
import { Equals, IsNotEmpty, IsObject, IsString, MaxLength, ValidateNested } from 'class-validator';
import { Trim } from '../../../common/transforms.js';

export class OrganizationAttributesDto {
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name!: string;
}

export class CreateOrganizationDataDto {
  @Equals('organization')
  type!: 'organization';

  @IsObject()
  @ValidateNested()
  @Type(() => OrganizationAttributesDto)
  attributes!: OrganizationAttributesDto;
}

/** Body of `POST /organizations`: `{data: {type: 'organization', attributes: {name}}}`. */
export class CreateOrganizationDto {
  @IsObject()
  @ValidateNested()
  @Type(() => CreateOrganizationDataDto)
  data!: CreateOrganizationDataDto;
}
