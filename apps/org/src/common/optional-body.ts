import { RequestValidationPipe } from '@wp/http';

/**
 * Validates a body that may be absent altogether (contract: `restore_access` takes an optional
 * `role`): no body counts as `{}`; anything else goes through the global validation rules
 * (400 with pointers, unknown fields stripped). Declare the parameter as `unknown` so the
 * global pipe passes it through untouched.
 */
export async function optionalBody<T extends object>(
  metatype: new () => T,
  raw: unknown,
): Promise<T> {
  return (await new RequestValidationPipe().transform(raw ?? {}, {
    type: 'body',
    metatype,
  })) as T;
}
