import type { FetchOptions } from 'openapi-fetch';
import type { paths } from './schema.js';

/**
 * Types of the API's operations, read from the OpenAPI document (docs/openapi.json, through the
 * generated `paths` of `schema.ts`): what a request takes, what each status answers, and which
 * error codes an operation can answer (docs/api-documentation.md § Error codes per operation).
 */

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch' | 'head' | 'options' | 'trace';

/** Every path template of the document, e.g. `/v1/api/wallets/{addressHash}`. */
export type ApiPath = Extract<keyof paths, string>;

/** The paths that have an operation for `M` (absent methods are optional `never` in `paths`). */
export type PathsWith<M extends HttpMethod> = {
  [P in ApiPath]: paths[P] extends { [K in M]: object } ? P : never;
}[ApiPath];

/** The methods `P` has an operation for. */
export type MethodsOf<P extends ApiPath> = {
  [M in HttpMethod]: P extends PathsWith<M> ? M : never;
}[HttpMethod];

/** The operation object of `M P`. */
export type Operation<P extends ApiPath, M extends HttpMethod> =
  P extends PathsWith<M> ? paths[P][M] : never;

/** `"GET /v1/api/wallets"`: one name per operation, as errors carry it ({@link PlatformApiError}). */
export type OperationKey = {
  [P in ApiPath]: { [M in MethodsOf<P>]: `${Uppercase<M>} ${P}` }[MethodsOf<P>];
}[ApiPath];

/** Statuses that are answers rather than errors: 2xx, and 304 on `If-None-Match`. */
export type AnswerStatus = 200 | 201 | 202 | 203 | 204 | 206 | 207 | 304;

type Responses<P extends ApiPath, M extends HttpMethod> =
  Operation<P, M> extends { responses: infer R } ? R : never;

/** The JSON body of one response object (`undefined` for a response without content). */
type BodyOf<R> = R extends { content: { 'application/json': infer B } }
  ? B
  : R extends { content: infer C }
    ? C extends object
      ? C[keyof C]
      : undefined
    : undefined;

/**
 * What an operation answers, one member per answer status the document lists, so checking
 * `status` narrows `body` (a discriminated union): `{ status: 200; body: …; response }`.
 */
export type Answer<P extends ApiPath, M extends HttpMethod> = {
  [S in keyof Responses<P, M> & AnswerStatus]: {
    status: S;
    body: BodyOf<Responses<P, M>[S]>;
    /** The fetch `Response` (headers such as `ETag`, `Idempotent-Replayed`); its body is read. */
    response: Response;
  };
}[keyof Responses<P, M> & AnswerStatus];

/** The body of a successful answer (any 2xx; a 304 has none). */
export type AnswerBody<P extends ApiPath, M extends HttpMethod> = Exclude<
  Answer<P, M>,
  { status: 304 }
>['body'];

type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 405 | 409 | 410 | 413 | 415 | 422 | 429;
type ServerErrorStatus = 500 | 501 | 502 | 503 | 504;

/** The machine-readable code(s) an error body can carry: JSON:API `errors[].code` or `code`. */
type CodeOf<B> = B extends unknown ? JsonApiCode<B> | FlatCode<B> : never;
type JsonApiCode<B> = B extends { errors: readonly { code?: unknown }[] }
  ? Extract<B['errors'][number]['code'], string>
  : never;
type FlatCode<B> = B extends { code?: unknown } ? Extract<B['code'], string> : never;

/** The error codes the document lists for `M P` (its per-status `enum`s of codes). */
export type ErrorCode<P extends ApiPath, M extends HttpMethod> = CodeOf<
  BodyOf<Responses<P, M>[keyof Responses<P, M> & (ErrorStatus | ServerErrorStatus)]>
>;

/** The error codes of the operation named `K` (`"POST /v1/api/wallets/transact"`). */
export type ErrorCodeOf<K extends OperationKey> = K extends `${infer M} ${infer P}`
  ? P extends ApiPath
    ? Lowercase<M> extends HttpMethod
      ? ErrorCode<P, Lowercase<M>>
      : never
    : never
  : never;

/** Every error code of every operation. */
export type AnyErrorCode = ErrorCodeOf<OperationKey>;

/** The JSON request body of `M P` (`never` when it takes none). */
export type RequestBody<P extends ApiPath, M extends HttpMethod> =
  Operation<P, M> extends { requestBody?: infer R }
    ? NonNullable<R> extends { content: { 'application/json': infer B } }
      ? B
      : never
    : never;

/** The query parameters of `M P`. */
export type QueryOf<P extends ApiPath, M extends HttpMethod> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

/**
 * The `init` argument of `sdk.api.GET(path, init)` and its siblings for the operation object `O`
 * (`paths[P][M]`): openapi-fetch's options (`params`, `body`, `headers`, `signal`, …), optional
 * when nothing in them is required. Generic over the operation object rather than `P` and `M`,
 * so the compiler evaluates it per call, not over every operation of the document.
 */
export type InitArgs<O> =
  RequiredKeys<FetchOptions<O>> extends never ? [init?: FetchOptions<O>] : [init: FetchOptions<O>];
