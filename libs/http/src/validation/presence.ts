import { applyDecorators } from '@nestjs/common';
import { ValidateBy, ValidateIf, type ValidationOptions } from 'class-validator';

/**
 * Presence rules of request fields (docs/decisions.md § Wire format, "Absent and null").
 *
 * class-validator's `@IsOptional()` skips every validator when a value is `undefined` *or*
 * `null`, so a JSON `null` reached the services as a valid value and, where the column is
 * `NOT NULL`, PostgreSQL refused it (a 500). The project's DTOs say instead which of the two a
 * field means — an ESLint rule forbids `@IsOptional()` in the apps:
 *
 * - {@link MayBeAbsent}: the field may be left out; `null` is refused with 400
 *   `VALIDATION_FAILED` ("must not be null"), its `source.pointer` naming the field.
 * - {@link MayBeNull}: the field may be left out or be `null`, and `null` means something the
 *   contract names (clearing a value, "never expires").
 */
export function MayBeAbsent(options?: ValidationOptions): PropertyDecorator {
  return applyDecorators(
    ValidateIf((_object: object, value: unknown) => value !== undefined, options),
    NotNull(options),
  );
}

/**
 * The field may be left out or be `null` (which then carries a meaning the field's docstring
 * names); any other value goes through the field's validators. Same as class-validator's
 * `@IsOptional()`, named for what it allows.
 */
export function MayBeNull(options?: ValidationOptions): PropertyDecorator {
  return ValidateIf(
    (_object: object, value: unknown) => value !== undefined && value !== null,
    options,
  );
}

/** Fails on `null` with "`<field>` must not be null; leave it out instead". */
function NotNull(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'notNull',
      validator: {
        validate: (value: unknown) => value !== null,
        defaultMessage: () => 'must not be null; leave the field out instead',
      },
    },
    options,
  );
}
