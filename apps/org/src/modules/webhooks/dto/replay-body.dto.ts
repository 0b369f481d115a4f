import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, IsString, ValidateNested } from 'class-validator';
import { IsIsoInstant, MayBeAbsent, SchemaRule } from '@wp/http';
import { eitherFormRequired } from '../../../common/body-fields.js';

export class ReplayAttributesDto {
  @ApiPropertyOptional({ description: 'Replay messages since this instant (ISO 8601).' })
  @MayBeAbsent()
  @IsIsoInstant()
  since?: string;
}

export class ReplayDataDto {
  @MayBeAbsent()
  @IsString()
  type?: string;

  @MayBeAbsent()
  @IsObject()
  @ValidateNested()
  @Type(() => ReplayAttributesDto)
  attributes?: ReplayAttributesDto;
}

/**
 * Body of `POST …/webhook_endpoints/{id}/replay`: `{since}` or `{data: {attributes: {since}}}`
 * (docs/architecture.md § Request bodies).
 */
@SchemaRule(eitherFormRequired('since'))
export class ReplayBodyDto {
  @ApiPropertyOptional({ description: 'Replay messages since this instant (ISO 8601).' })
  @MayBeAbsent()
  @IsIsoInstant()
  since?: string;

  @MayBeAbsent()
  @IsObject()
  @ValidateNested()
  @Type(() => ReplayDataDto)
  data?: ReplayDataDto;
}
