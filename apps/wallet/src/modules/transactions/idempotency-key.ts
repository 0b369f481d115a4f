import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { HEADERS } from '@wp/contracts';
import { ValidationFailedError } from '@wp/http';

/** An `Idempotency-Key` value: 1-255 visible ASCII characters. */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * The `Idempotency-Key` request header as the OpenAPI document describes it (`@ApiHeader` on the
 * routes that honour it; the gateway turns it into `components.parameters.IdempotencyKey`).
 */
export const IDEMPOTENCY_KEY_HEADER = {
  name: 'Idempotency-Key',
  required: false,
  description:
    'Makes the request safe to retry: a retry with the same key and body answers the first ' +
    'outcome again (with `Idempotent-Replayed: true`) and moves nothing; the same key with ' +
    'another body is a 409 `IDEMPOTENCY_KEY_REUSED`. 1-255 visible ASCII characters; a random UUID is a good choice.',
  schema: {
    type: 'string',
    pattern: IDEMPOTENCY_KEY.source,
    example: '3f2a9c4e-8b1d-4c6a-9e2f-7a5b1c0d4e6f',
  },
};

/** Why an `Idempotency-Key` value is refused, or null: 1-255 visible ASCII characters. */
export function idempotencyKeyProblem(value: unknown): string | null {
  if (typeof value === 'string' && IDEMPOTENCY_KEY.test(value)) return null;
  return 'Idempotency-Key must be 1-255 visible ASCII characters';
}

/**
 * The optional `Idempotency-Key` header (docs/wallet.md § Idempotency): undefined when absent,
 * 400 `VALIDATION_FAILED` (source `header`) when malformed.
 */
export const IdempotencyKey = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): string | undefined => {
    const headers = ctx.switchToHttp().getRequest<{ headers: Record<string, unknown> }>().headers;
    const value = headers[HEADERS.idempotencyKey];
    if (value === undefined) return undefined;
    const problem = idempotencyKeyProblem(value);
    if (problem) throw ValidationFailedError.at({ header: 'Idempotency-Key' }, problem);
    return value as string;
  },
);
