import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { MayBeAbsent } from '../validation/presence.js';
import { ToInt } from '../validation/query-transforms.js';
import { IsInt, IsString, Matches, Max, MaxLength, Min } from 'class-validator';

/*
 * Query fields of the keyset-paged lists (org's audit log and webhook delivery log, auth's operator audit log): each returns
 * the decorators the DTOs stacked by hand before. A stack applies from the bottom up and
 * `applyDecorators` from the first argument on, so the arguments are the stack read bottom-up:
 * the rules register in the same order as before (the validation pipe answers a field's last
 * failed rule) and the OpenAPI document is unchanged.
 */

/** `limit`: page size, an integer 1–100, 50 when absent. */
export const PageLimitField = (): PropertyDecorator =>
  applyDecorators(
    Max(100),
    Min(1),
    IsInt(),
    ToInt(),
    MayBeAbsent(),
    ApiPropertyOptional({ description: 'Page size, 1–100.', default: 50 }),
  );

/** `cursor`: the previous page's `meta.next_cursor` (base64url, at most 200 characters). */
export const PageCursorField = (): PropertyDecorator =>
  applyDecorators(
    Matches(/^[A-Za-z0-9_-]+$/, { message: 'must be a cursor from a previous page' }),
    MaxLength(200),
    IsString(),
    MayBeAbsent(),
    ApiPropertyOptional({ description: '`meta.next_cursor` of the previous page.' }),
  );
