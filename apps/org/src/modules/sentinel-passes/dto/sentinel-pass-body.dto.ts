import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { IsIsoInstant, MayBeAbsent, MayBeNull } from '@wp/http';
import { Trim } from '../../../common/transforms.js';

/** `credentialType` and the `credential_type` filter: a lower-case identifier. */
export const CREDENTIAL_TYPE = /^[a-z][a-z0-9_]{0,49}$/;
/** A tag: 1–50 characters after trimming, no comma (the `tags` filter is a comma list). */
export const TAG = /^[^,]{1,50}$/;
/** An OAuth scope token (RFC 6749 § 3.3 characters), at most 100 characters. */
const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]{1,100}$/;
/**
 * A `permissions` entry (docs/org.md § Sentinel Pass): 1–100 of letters, digits and `:._*-` —
 * room for the platform's names (`wallets:read`, `read`) and other systems' (`repo:*`,
 * `files.write`), nothing that needs escaping anywhere.
 */
export const PERMISSION = /^[A-Za-z0-9:._*-]{1,100}$/;
/** Most entries of `permissions`. */
export const PERMISSIONS_MAX = 50;
/** A referer pattern (docs/org.md § Sentinel Pass): no whitespace, at most 500 characters. */
const REFERER = /^\S{1,500}$/;

/** Trims each string of an array; anything else is left for the validators. */
const TrimEach = () =>
  Transform(({ value }: { value: unknown }) =>
    Array.isArray(value)
      ? (value as unknown[]).map((v) => (typeof v === 'string' ? v.trim() : v))
      : value,
  );

/**
 * Fields of `sentinelPass` (docs/api.md § Sentinel Passes, `POST S`) but `title`, which
 * {@link CreateSentinelPassFieldsDto} requires and {@link UpdateSentinelPassFieldsDto} does not. Arrays are deduplicated by the service.
 */
export class SentinelPassFieldsDto {
  /** Required on create (see the subclasses: a parent's `@MayBeAbsent` would win). */
  title?: string;

  /** Null or absent: empty. */
  @MayBeNull()
  @IsString()
  @MaxLength(2000)
  description?: string | null;

  /** Only `project` (the pass belongs to the path's project). */
  @MayBeAbsent()
  @IsIn(['project'], { message: 'must be project' })
  entityType?: string;

  /** Set to the path's `projectId`; if sent it must equal it (checked by the controller). */
  @ApiPropertyOptional({
    oneOf: [
      { type: 'string', pattern: '^\\s*[1-9]\\d{0,9}\\s*$' },
      { type: 'integer', minimum: 1 },
    ],
  })
  @MayBeAbsent()
  entityId?: unknown;

  /**
   * Any strings within {@link PERMISSIONS_MAX} × {@link PERMISSION}, stored and echoed as sent
   * (order and duplicates kept). Only the names `@wp/contracts` knows grant anything to an agent
   * (`grantedAgentPermissions`); the rest are labels.
   */
  @MayBeAbsent()
  @IsArray()
  @ArrayMaxSize(PERMISSIONS_MAX)
  @Matches(PERMISSION, {
    each: true,
    message: 'each value must be 1–100 characters of letters, digits and : . _ * -',
  })
  permissions?: string[];

  @MayBeAbsent()
  @IsArray()
  @ArrayMaxSize(50)
  @TrimEach()
  @Matches(REFERER, {
    each: true,
    message: 'each value must be a referer pattern of 1–500 characters without whitespace',
  })
  allowedReferers?: string[];

  @MayBeAbsent()
  @IsString()
  @Matches(CREDENTIAL_TYPE, {
    message: 'must be a lower-case identifier ([a-z][a-z0-9_]*, at most 50 characters)',
  })
  credentialType?: string;

  @MayBeAbsent()
  @IsArray()
  @ArrayMaxSize(50)
  @Matches(SCOPE, {
    each: true,
    message: 'each value must be an OAuth scope token (1–100 characters)',
  })
  scopes?: string[];

  /** ISO 8601 date-time in the future; null: never expires. */
  @MayBeNull()
  @IsIsoInstant({
    message: 'must be an ISO 8601 date-time (e.g. 2027-01-31T12:00:00Z), a date, or null',
  })
  expiresAt?: string | null;

  @MayBeAbsent()
  @IsArray()
  @ArrayMaxSize(20)
  @TrimEach()
  @Matches(TAG, { each: true, message: 'each tag must be 1–50 characters without a comma' })
  tags?: string[];
}

/** `POST S` fields: `title` required, 1–200 characters after trimming. */
export class CreateSentinelPassFieldsDto extends SentinelPassFieldsDto {
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  declare title: string;
}

/** `PUT S/{id}` fields: all optional; `title`, when sent, 1–200 characters. */
export class UpdateSentinelPassFieldsDto extends SentinelPassFieldsDto {
  @MayBeAbsent()
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  declare title?: string;
}

/** Body of `POST S`: `{sentinelPass: {title, …}}`. */
export class CreateSentinelPassDto {
  @IsObject()
  @ValidateNested()
  @Type(() => CreateSentinelPassFieldsDto)
  sentinelPass!: CreateSentinelPassFieldsDto;
}

/** Body of `PUT S/{id}`: `{sentinelPass: {…}}`, the fields to change (docs/org.md). */
export class UpdateSentinelPassDto {
  @IsObject()
  @ValidateNested()
  @Type(() => UpdateSentinelPassFieldsDto)
  sentinelPass!: UpdateSentinelPassFieldsDto;
}
