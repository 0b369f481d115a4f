import { ValidateBy, type ValidationOptions } from 'class-validator';

const FORM =
  /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * Reads an ISO 8601 instant in the forms clients send: a calendar date `YYYY-MM-DD` (its
 * 00:00Z) or a date-time `YYYY-MM-DDTHH:MM[:SS[.fff]]` with `Z`, `±HH`, `±HHMM` or `±HH:MM`
 * (UTC without one). Other ISO 8601 forms — week dates (`2026-W47`), ordinal dates
 * (`2026-327`), the basic format (`20261123`), a bare year or month — and impossible dates
 * (`2026-02-30`, `T25:00`) give null. class-validator's `@IsISO8601` accepts those forms, but
 * `Date` reads them wrongly or not at all, which made them reach PostgreSQL as invalid dates.
 */
export function parseIsoInstant(value: string): Date | null {
  const match = FORM.exec(value);
  if (!match) return null;
  const [, day, time, zone] = match as unknown as [string, string, string?, string?];
  const midnight = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(midnight.getTime()) || midnight.toISOString().slice(0, 10) !== day) return null;
  if (time === undefined) return zone === undefined ? midnight : null;
  const offset = zone === undefined ? 'Z' : /^[+-]\d{2}$/.test(zone) ? `${zone}:00` : zone;
  const date = new Date(`${day}${time}${offset}`);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** True when {@link parseIsoInstant} reads the value. */
export function isIsoInstant(value: unknown): value is string {
  return typeof value === 'string' && parseIsoInstant(value) !== null;
}

/**
 * Validator: a string {@link parseIsoInstant} reads (a calendar date or a date-time). Use it
 * instead of `@IsISO8601` for any value that becomes a `Date`.
 */
export function IsIsoInstant(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isIsoInstant',
      validator: {
        validate: (value: unknown) => isIsoInstant(value),
        defaultMessage: () =>
          '$property must be an ISO 8601 date (YYYY-MM-DD) or date-time (e.g. 2026-11-23T10:00:00Z)',
      },
    },
    options,
  );
}
