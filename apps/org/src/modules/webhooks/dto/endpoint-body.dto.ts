import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  Equals,
  IsArray,
  IsBoolean,
  IsInt,
  IsObject,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateNested,
  type ValidationOptions,
} from 'class-validator';
import { isValidEventTypeFilter, WEBHOOK_EVENT_PREFIXES, WEBHOOK_EVENT_TYPES } from '@wp/contracts';
import { MayBeAbsent, MayBeNull, ToInt } from '@wp/http';
import { MAX_URL_LENGTH } from '../url-policy.js';

/** Most filters of one endpoint. */
export const MAX_EVENT_FILTERS = 100;

/** Each item a valid event type filter (`*`, `<prefix>.*`, an exact type). */
function IsEventTypeFilter(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isEventTypeFilter',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && isValidEventTypeFilter(value),
        defaultMessage: () =>
          'each event type must be "*", "<resource>.*" or a known type (docs/webhooks.md)',
      },
    },
    { each: true, ...options },
  );
}

/** Every valid filter: `*`, `<resource>.*` per resource, each type (the document's enum). */
const EVENT_TYPE_FILTERS = [
  '*',
  ...WEBHOOK_EVENT_PREFIXES.map((prefix) => `${prefix}.*`),
  ...WEBHOOK_EVENT_TYPES,
];

/** The URL as the document states it (the SSRF rules are checked on top: docs/org.md § SSRF defence). */
const URL_SCHEMA = {
  format: 'uri',
  pattern: '^https?://',
  maxLength: MAX_URL_LENGTH,
  example: 'https://93.184.215.14/webhooks',
};

const EVENT_TYPES_DOC =
  'Event types this endpoint receives: `*` (all), `<resource>.*` (e.g. `member.*`) or exact types.';

/** Attributes of `POST …/webhook_endpoints`. */
export class CreateEndpointAttributesDto {
  @ApiProperty({
    ...URL_SCHEMA,
    description:
      'Receiver URL: https (http outside production) whose host resolves to public addresses only.',
  })
  @IsString()
  @MaxLength(MAX_URL_LENGTH)
  url!: string;

  @ApiPropertyOptional({ maxLength: 500 })
  @MayBeAbsent()
  @IsString()
  @MaxLength(500)
  description?: string;

  @ApiProperty({
    description: EVENT_TYPES_DOC,
    enum: EVENT_TYPE_FILTERS,
    isArray: true,
    example: ['member.*', 'project.created'],
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_EVENT_FILTERS)
  @IsEventTypeFilter()
  eventTypes!: string[];

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    description: 'Only events of this project (an id of this organization); absent or null: all.',
  })
  @MayBeNull()
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  projectId?: number | null;

  @ApiPropertyOptional({ description: 'Absent: true.' })
  @MayBeAbsent()
  @IsBoolean()
  enabled?: boolean;
}

/** Attributes of `PATCH …/webhook_endpoints/{id}`: any of them; the project cannot change. */
export class UpdateEndpointAttributesDto {
  @ApiPropertyOptional({ ...URL_SCHEMA, description: 'Receiver URL, as on create.' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(MAX_URL_LENGTH)
  url?: string;

  @ApiPropertyOptional({ maxLength: 500 })
  @MayBeAbsent()
  @IsString()
  @MaxLength(500)
  description?: string;

  @ApiPropertyOptional({
    description: EVENT_TYPES_DOC,
    enum: EVENT_TYPE_FILTERS,
    isArray: true,
    example: ['member.*'],
  })
  @MayBeAbsent()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_EVENT_FILTERS)
  @IsEventTypeFilter()
  eventTypes?: string[];

  @ApiPropertyOptional({ description: 'true enables (clears the failure streak), false disables.' })
  @MayBeAbsent()
  @IsBoolean()
  enabled?: boolean;
}

export class CreateEndpointDataDto {
  @Equals('webhook_endpoints', { message: 'must be webhook_endpoints' })
  type!: 'webhook_endpoints';

  @IsObject()
  @ValidateNested()
  @Type(() => CreateEndpointAttributesDto)
  attributes!: CreateEndpointAttributesDto;
}

export class UpdateEndpointDataDto {
  @MayBeAbsent()
  @Equals('webhook_endpoints', { message: 'must be webhook_endpoints' })
  type?: 'webhook_endpoints';

  @IsObject()
  @ValidateNested()
  @Type(() => UpdateEndpointAttributesDto)
  attributes!: UpdateEndpointAttributesDto;
}

/** Body of `POST /organizations/{id}/webhook_endpoints` (docs/org.md § Webhooks). */
export class CreateEndpointDto {
  @IsObject()
  @ValidateNested()
  @Type(() => CreateEndpointDataDto)
  data!: CreateEndpointDataDto;
}

/** Body of `PATCH /organizations/{id}/webhook_endpoints/{endpointId}`. */
export class UpdateEndpointDto {
  @IsObject()
  @ValidateNested()
  @Type(() => UpdateEndpointDataDto)
  data!: UpdateEndpointDataDto;
}
