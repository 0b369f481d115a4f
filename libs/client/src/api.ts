import createClient, { type Client, type FetchOptions } from 'openapi-fetch';
import { errorFromAnswer, networkError, type PlatformApiError } from './errors.js';
import { idempotencyKeys } from './idempotency.js';
import type { Answer, ApiPath, ErrorCode, HttpMethod, InitArgs, PathsWith } from './operations.js';
import type { paths } from './schema.js';
import type { FetchLike } from './session.js';

/** Any operation, as openapi-fetch sees it when the request is not checked against the document. */
interface LooseOperation {
  parameters: {
    query?: Record<string, unknown>;
    header?: Record<string, unknown>;
    path?: Record<string, unknown>;
  };
  requestBody?: { content: { 'application/json': unknown } };
  responses: { [status: number]: { content: { 'application/json': unknown } } };
}
type LoosePaths = Record<string, { [M in HttpMethod]: LooseOperation }>;

/** Options of a request whose shape the document does not describe (see {@link ApiClient.send}). */
export type LooseInit = FetchOptions<LooseOperation>;

/** An answer before it is typed by its operation. */
export interface LooseAnswer {
  status: number;
  body: unknown;
  response: Response;
}

/**
 * Every operation of the OpenAPI document, typed from it (paths, parameters, bodies, answers):
 * `await sdk.api.GET('/v1/api/wallets/{addressHash}', { params: { path: { addressHash } } })`.
 * Each call resolves with the {@link Answer} — `{ status, body, response }`, a union on `status`
 * when the operation has several answers — or rejects with a {@link PlatformApiError} whose
 * `code` is one of the operation's codes. Requests go through the client's rules (Api-Key,
 * Bearer, refresh, retries, idempotency keys). Built on openapi-fetch (its `init` options:
 * `params`, `body`, `headers`, `signal`, `querySerializer`, …).
 */
export class ApiClient {
  private readonly client: Client<LoosePaths>;

  constructor(baseUrl: string, fetch: FetchLike) {
    this.client = createClient<LoosePaths>({ baseUrl, fetch });
    this.client.use(idempotencyKeys);
  }

  GET<P extends PathsWith<'get'>>(
    path: P,
    ...init: InitArgs<paths[P]['get']>
  ): Promise<Answer<P, 'get'>>;
  GET(path: string, init?: LooseInit): Promise<LooseAnswer> {
    return this.send('get', path, init);
  }

  POST<P extends PathsWith<'post'>>(
    path: P,
    ...init: InitArgs<paths[P]['post']>
  ): Promise<Answer<P, 'post'>>;
  POST(path: string, init?: LooseInit): Promise<LooseAnswer> {
    return this.send('post', path, init);
  }

  PUT<P extends PathsWith<'put'>>(
    path: P,
    ...init: InitArgs<paths[P]['put']>
  ): Promise<Answer<P, 'put'>>;
  PUT(path: string, init?: LooseInit): Promise<LooseAnswer> {
    return this.send('put', path, init);
  }

  PATCH<P extends PathsWith<'patch'>>(
    path: P,
    ...init: InitArgs<paths[P]['patch']>
  ): Promise<Answer<P, 'patch'>>;
  PATCH(path: string, init?: LooseInit): Promise<LooseAnswer> {
    return this.send('patch', path, init);
  }

  DELETE<P extends PathsWith<'delete'>>(
    path: P,
    ...init: InitArgs<paths[P]['delete']>
  ): Promise<Answer<P, 'delete'>>;
  DELETE(path: string, init?: LooseInit): Promise<LooseAnswer> {
    return this.send('delete', path, init);
  }

  /**
   * Sends `method path` with options the document does not describe (its request schema is
   * wrong for this use, e.g. the password grant of `POST /oauth/token`; docs/api-documentation.md
   * § Client SDK lists where the SDK does so); the answer and errors are typed as the
   * operation's. Prefer the typed methods above.
   */
  send<P extends PathsWith<M>, M extends HttpMethod>(
    method: M,
    path: P,
    init?: LooseInit,
  ): Promise<Answer<P, M>>;
  send(method: HttpMethod, path: string, init?: LooseInit): Promise<LooseAnswer>;
  async send(method: HttpMethod, path: string, init?: LooseInit): Promise<LooseAnswer> {
    const operation = operationKey(method, path);
    let result: { data?: unknown; error?: unknown; response: Response };
    try {
      result = await this.client.request(method, path, init);
    } catch (error) {
      if (error instanceof Error && error.name === 'AbortError') throw error;
      throw networkError(error, operation);
    }
    const { response } = result;
    if (!response.ok && response.status !== 304) {
      throw errorFromAnswer(response, result.error, operation);
    }
    return { status: response.status, body: result.data, response };
  }
}

/** The error type of `M P`, for `catch` blocks: `PlatformApiError<'…' | '…'>`. */
export type ApiError<P extends ApiPath, M extends HttpMethod> = PlatformApiError<ErrorCode<P, M>>;

/** `"POST /v1/api/wallets/transact"`: the `OperationKey` of `method path`. */
function operationKey(method: HttpMethod, path: string): string {
  return `${method.toUpperCase()} ${path}`;
}
