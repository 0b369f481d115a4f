import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  Equals,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsString,
  MaxLength,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { MayBeAbsent } from '@wp/http';
import { LowerCase } from '../../../common/transforms.js';
import { LLM_PROVIDERS, type LlmProvider } from '../llm-providers.js';

export class CreateLlmApiKeyAttributesDto {
  @LowerCase()
  @IsIn(LLM_PROVIDERS, { message: `must be one of ${LLM_PROVIDERS.join(', ')}` })
  provider!: LlmProvider;

  @IsString()
  @MinLength(8)
  @MaxLength(1000)
  secretKey!: string;

  @MayBeAbsent()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  @MaxLength(200, { each: true })
  customModels?: string[];

  /** Default true. */
  @MayBeAbsent()
  @IsBoolean()
  withDefaultModels?: boolean;
}

export class CreateLlmApiKeyDataDto {
  @Equals('llm_api_keys', { message: 'must be llm_api_keys' })
  type!: 'llm_api_keys';

  @IsObject()
  @ValidateNested()
  @Type(() => CreateLlmApiKeyAttributesDto)
  attributes!: CreateLlmApiKeyAttributesDto;
}

/**
 * Body of `POST …/projects/{id}/llm_api_keys` (docs/api.md § Projects): `data.type` =
 * `llm_api_keys`; `provider`, `secretKey` required; `customModels`, `withDefaultModels`.
 */
export class CreateLlmApiKeyDto {
  @IsObject()
  @ValidateNested()
  @Type(() => CreateLlmApiKeyDataDto)
  data!: CreateLlmApiKeyDataDto;
}
