import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ZeroOneBoolean } from './validator-schemas.js';

/**
 * Query-string converters. Query values arrive as strings; these convert only well-formed
 * values and leave anything else untouched, so the validators next to them reject it with 400.
 */

/** `true`/`false` (also `1`/`0`) → boolean. */
export function ToBoolean(): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => {
      if (value === 'true' || value === '1' || value === true) return true;
      if (value === 'false' || value === '0' || value === false) return false;
      return value;
    }),
    ZeroOneBoolean(),
  );
}

/** A decimal integer string → number. */
export function ToInt(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^-?\d{1,15}$/.test(value) ? Number(value) : value,
  );
}

/** `a,b,c` (or a repeated parameter) → `['a','b','c']`, trimmed, empties dropped. */
export function ToList(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) => {
    const parts: unknown[] | null = Array.isArray(value)
      ? (value as unknown[])
      : typeof value === 'string'
        ? [value]
        : null;
    if (parts === null) return value;
    return parts
      .flatMap((p): unknown[] => (typeof p === 'string' ? p.split(',') : [p]))
      .map((p) => (typeof p === 'string' ? p.trim() : p))
      .filter((p) => p !== '');
  });
}
