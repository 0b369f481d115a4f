import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiQuery, type ApiQueryOptions } from '@nestjs/swagger';
import { z } from 'zod';
import { LangfuseApiError } from './langfuse-errors.js';

/**
 * Query-string parsing shared by the read endpoints, with Langfuse's rules
 * (`publicApiPaginationZod`): `page` ≥ 1 (default 1), `limit` 1-100 (default 50), datetimes ISO
 * 8601 with an offset, lists repeated and/or comma-separated.
 */
const blankToUndefined = (v: unknown) => (v === '' ? undefined : v);

export const pageField = z.preprocess(blankToUndefined, z.coerce.number().int().gte(1).default(1));
export const limitField = z.preprocess(
  blankToUndefined,
  z.coerce.number().int().gte(1).lte(100).default(50),
);

/** One value: a repeated parameter is refused rather than silently truncated. */
export const stringField = z.preprocess(blankToUndefined, z.string().optional());

export const datetimeField = z.preprocess(
  blankToUndefined,
  z.iso
    .datetime({
      offset: true,
      message: 'expected an ISO 8601 datetime with offset, e.g. 2025-01-01T00:00:00Z',
    })
    .transform((v) => new Date(v))
    .optional(),
);

/** A datetime the caller must send (400 naming it when missing). */
export function requiredDatetimeField(name: string) {
  return z.preprocess(
    blankToUndefined,
    z.iso
      .datetime({
        offset: true,
        error: (issue) =>
          issue.input === undefined
            ? `${name} is required (ISO 8601 datetime with offset)`
            : 'expected an ISO 8601 datetime with offset, e.g. 2025-01-01T00:00:00Z',
      })
      .transform((v) => new Date(v)),
  );
}

/** `a,b` and/or repeated `x=a&x=b` → `['a','b']` (trimmed, empties dropped). */
export const listField = z.preprocess((v) => {
  if (v === undefined || v === '') return undefined;
  const parts: unknown[] = Array.isArray(v) ? (v as unknown[]) : [v];
  return parts
    .flatMap((p): unknown[] => (typeof p === 'string' ? p.split(',') : [p]))
    .map((p): unknown => (typeof p === 'string' ? p.trim() : p))
    .filter((p) => p !== '');
}, z.array(z.string()).optional());

/** zod's issues as Langfuse's 400 body lists them: `[{code, message, path}]`. */
export function langfuseIssues(error: z.ZodError) {
  return error.issues.map((i) => ({
    code: i.code,
    message: i.message,
    path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
  }));
}

/** Parses a query object or throws a 400 `{message: "Invalid request data", error: issues}`. */
export function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.infer<S> {
  const parsed = schema.safeParse(query ?? {});
  if (parsed.success) return parsed.data;
  throw LangfuseApiError.invalid(langfuseIssues(parsed.error));
}

/**
 * The parameter decorator of a read endpoint's query string: the value is the query parsed by
 * `schema` ({@link parseQuery}: 400 `invalid_query` in Langfuse's shape when it does not parse),
 * and the same schema describes the route's query parameters in the OpenAPI document (one
 * `in: query` parameter per key, its JSON Schema from zod's `toJSONSchema` of the input), so
 * the document cannot drift from what is accepted. docs/api-documentation.md § How the document
 * is made.
 */
export function LangfuseQuery(schema: z.ZodObject) {
  const describe = (target: object, key?: string | symbol) => {
    if (key === undefined) return;
    const descriptor = { value: (target as Record<string | symbol, unknown>)[key] };
    for (const parameter of queryParameters(schema)) ApiQuery(parameter)(target, key, descriptor);
  };
  return createParamDecorator(
    (_data: unknown, context: ExecutionContext) =>
      parseQuery(schema, context.switchToHttp().getRequest<{ query?: unknown }>().query),
    [describe],
  )();
}

/** One OpenAPI query parameter per key of `schema`, with the JSON Schema of its input. */
export function queryParameters(schema: z.ZodObject): ApiQueryOptions[] {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    // A datetime's regular expression restates `format: date-time`.
    const { pattern, ...rest } = property;
    const described = rest['format'] === 'date-time' ? rest : { ...rest, pattern };
    if (described['pattern'] === undefined) delete described['pattern'];
    return {
      name,
      required: json.required?.includes(name) ?? false,
      schema: described,
      ...(described['type'] === 'array' ? { style: 'form', explode: true } : {}),
    };
  });
}
