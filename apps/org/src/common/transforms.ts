import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { CaseInsensitive } from '@wp/http';

/**
 * Body converters. They change only strings and leave anything else for the validators next to
 * them, which then answer 400 with a pointer.
 */

/** Trims surrounding whitespace. */
export const Trim = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));

/** `member` → `MEMBER`: role fields are accepted in either case, answered in the contract's. */
export const UpperCase = (): PropertyDecorator =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' ? value.trim().toUpperCase() : value,
    ),
    CaseInsensitive(),
  );

/** `MEMBER` → `member` (invitation roles are lower case on the wire). */
export const LowerCase = (): PropertyDecorator =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' ? value.trim().toLowerCase() : value,
    ),
    CaseInsensitive(),
  );
