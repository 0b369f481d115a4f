import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { HEADERS } from '@wp/contracts';
import { ValidationFailedError } from '@wp/http';

/** Why an `Idempotency-Key` value is refused, or null: 1-255 visible ASCII characters. */
export function idempotencyKeyProblem(value: unknown): string | null {
  if (typeof value === 'string' && /^[\x21-\x7e]{1,255}$/.test(value)) return null;
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
