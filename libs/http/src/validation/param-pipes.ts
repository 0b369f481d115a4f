import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { ValidationFailedError } from '../errors/validation-error.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_INT4 = 2_147_483_647;

/**
 * Path id pipes: a malformed id is a 400 naming the parameter; a well-formed id that matches
 * nothing is the service's 404.
 */
@Injectable()
export class IntIdPipe implements PipeTransform<string, number> {
  /** What it accepts, as the OpenAPI document states the parameter. */
  static readonly openApiSchema = { type: 'integer', minimum: 1, maximum: MAX_INT4 };

  transform(value: string, metadata: ArgumentMetadata): number {
    if (/^\d{1,10}$/.test(value)) {
      const n = Number(value);
      if (n >= 1 && n <= MAX_INT4) return n;
    }
    throw ValidationFailedError.at(
      { parameter: metadata.data ?? 'id' },
      'must be a positive integer id',
    );
  }
}

@Injectable()
export class UuidPipe implements PipeTransform<string, string> {
  /** What it accepts, as the OpenAPI document states the parameter (either case). */
  static readonly openApiSchema = { type: 'string', format: 'uuid' };

  transform(value: string, metadata: ArgumentMetadata): string {
    if (UUID.test(value)) return value.toLowerCase();
    throw ValidationFailedError.at({ parameter: metadata.data ?? 'id' }, 'must be a UUID');
  }
}
