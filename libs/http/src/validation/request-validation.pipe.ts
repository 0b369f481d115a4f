import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate, type ValidationError } from 'class-validator';
import { ValidationFailedError, type ValidationIssue } from '../errors/validation-error.js';

const PRIMITIVES = new Set<unknown>([String, Boolean, Number, Array, Object]);

/**
 * A DTO class may offer a fast path for its hot route as a static method under this key:
 * `(value) => instance | undefined`. It must return the very instance class-validator would
 * accept (unknown fields stripped, transforms applied), or undefined whenever it is not sure —
 * then the pipe validates as usual, so every refusal is worded by class-validator.
 */
export const FAST_VALIDATION = Symbol.for('wp:fastValidation');

/** The static side of a DTO with a {@link FAST_VALIDATION} path. */
export interface FastValidated {
  [FAST_VALIDATION]?: (value: unknown) => object | undefined;
}

/**
 * The global validation pipe: class-validator DTOs for bodies and queries. Unknown fields are
 * stripped (docs/architecture.md § Request bodies), no implicit type conversion happens (a JSON
 * string is never accepted where a number is required; query DTOs convert explicitly with the
 * `To*` decorators), and every failure becomes a 400 `VALIDATION_FAILED` with one error per field:
 * `source.pointer` (`/data/attributes/name`) for bodies, `source.parameter` for queries.
 * DTOs of hot routes may skip class-validator for input they fully accept ({@link FAST_VALIDATION}).
 */
@Injectable()
export class RequestValidationPipe implements PipeTransform {
  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const { metatype, type } = metadata;
    if (type === 'custom' || !metatype || PRIMITIVES.has(metatype)) return value;
    const fast = (metatype as FastValidated)[FAST_VALIDATION]?.(value);
    if (fast !== undefined) return fast;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      if (type === 'body') {
        throw ValidationFailedError.at({ pointer: '' }, 'The request body must be a JSON object.');
      }
      value = {};
    }
    const instance = plainToInstance<object, unknown>(metatype as new () => object, value);
    const errors = await validate(instance, {
      whitelist: true,
      forbidUnknownValues: false,
      validationError: { target: false, value: false },
    });
    if (errors.length > 0) {
      throw new ValidationFailedError(
        flatten(errors, [], type === 'body' ? 'pointer' : 'parameter'),
      );
    }
    return instance;
  }
}

function flatten(
  errors: ValidationError[],
  path: string[],
  kind: 'pointer' | 'parameter',
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const error of errors) {
    const here = [...path, error.property];
    const messages = Object.values(error.constraints ?? {});
    if (messages.length > 0) {
      const source =
        kind === 'pointer'
          ? { pointer: '/' + here.map(escapePointer).join('/') }
          : { parameter: here.join('.') };
      issues.push({ source, detail: messages[messages.length - 1] });
    }
    if (error.children?.length) issues.push(...flatten(error.children, here, kind));
  }
  return issues;
}

/** RFC 6901 escaping of one reference token. */
function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}
