import { Type } from 'class-transformer';
import { IsNotEmpty, IsObject, IsString, MaxLength, ValidateNested } from 'class-validator';
import { IsIsoInstant, MayBeNull } from '@wp/http';
import { Trim } from '../../../common/transforms.js';

export class ApiKeyNoteAttributesDto {
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  note!: string;
}

export class CreateApiKeyAttributesDto extends ApiKeyNoteAttributesDto {
  /** ISO 8601 date-time in the future; absent or null: never expires. */
  @MayBeNull()
  @IsIsoInstant({ message: 'must be an ISO 8601 date-time (e.g. 2027-01-31T12:00:00Z) or date' })
  expires_at?: string | null;
}

export class CreateApiKeyDataDto {
  @IsObject()
  @ValidateNested()
  @Type(() => CreateApiKeyAttributesDto)
  attributes!: CreateApiKeyAttributesDto;
}

/** Body of `POST …/projects/{id}/api_keys`: `data.attributes.note`, optional `expires_at`. */
export class CreateApiKeyDto {
  @IsObject()
  @ValidateNested()
  @Type(() => CreateApiKeyDataDto)
  data!: CreateApiKeyDataDto;
}

export class UpdateApiKeyDataDto {
  @IsObject()
  @ValidateNested()
  @Type(() => ApiKeyNoteAttributesDto)
  attributes!: ApiKeyNoteAttributesDto;
}

/** Body of `PATCH …/api_keys/{apiKeyId}`: `data.attributes.note`. */
export class UpdateApiKeyDto {
  @IsObject()
  @ValidateNested()
  @Type(() => UpdateApiKeyDataDto)
  data!: UpdateApiKeyDataDto;
}
