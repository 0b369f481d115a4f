import { Type } from 'class-transformer';
import {
  IsISO8601,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
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
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'must be an ISO 8601 date-time' })
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
