import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate, type ValidationError } from 'class-validator';
import { ValidationFailedError, type ValidationIssue } from '../errors/validation-error.js';

const PRIMITIVES = new Set<unknown>([String, Boolean, Number, Array, Object]);

/**
 * The global validation pipe: class-validator DTOs for bodies and queries. Unknown fields are
 * stripped (ARCHITECTURE § 4 "Request bodies"), no implicit type conversion happens (a JSON
 * string is never accepted where a number is required; query DTOs convert explicitly with the
 * `To*` decorators), and every failure becomes a 400 `VALIDATION_FAILED` with one error per field:
 * `source.pointer` (`/data/attributes/name`) for bodies, `source.parameter` for queries.
 */
@Injectable()
export class RequestValidationPipe implements PipeTransform {
  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const { metatype, type } = metadata;
    if (type === 'custom' || !metatype || PRIMITIVES.has(metatype)) return value;
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
