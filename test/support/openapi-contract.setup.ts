// Jest setup (every project, jest.preset.js): each answer of the published API that a test
// receives — through `fetch` (PlatformStack.request, the gateway, the SDK) or a Nest app's
// `inject` (the services' own e2e suites) — is checked against docs/openapi.json by
// OpenApiContract; a test whose traffic breaks the document fails in its afterEach. So does a
// request the server accepted (2xx) that the document calls invalid: the document would be
// narrower than the API (requests refused on purpose are no finding).
// `OPENAPI_CONTRACT=off` turns the check off; `OPENAPI_CONTRACT_FILE` checks against another file.
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { OpenApiContract } from './openapi-contract.js';
import type { SentRequest } from './openapi-request-contract.js';

const enabled = process.env['OPENAPI_CONTRACT'] !== 'off';
let contract: OpenApiContract | undefined;
const violations: string[] = [];

function record(
  method: string,
  url: string,
  status: number,
  type: string,
  body: string,
  request?: SentRequest,
): void {
  // A suite whose upstreams are stand-ins (the gateway's own tests) opts out.
  if ((globalThis as Record<string, unknown>)['__OPENAPI_CONTRACT_SKIP__'] === true) return;
  const path = new URL(url, 'http://x').pathname;
  if (!OpenApiContract.covers(path)) return;
  contract ??= OpenApiContract.fromFile(process.env['OPENAPI_CONTRACT_FILE']);
  violations.push(...contract.check(method, url, status, type, body));
  // 207 (the ingestion batch) accepts the envelope but refuses the events it lists as errors.
  // The fuzz test opts out of the request check only: its mutated requests are meant to be
  // invalid, and comma lists (`?tags=a,,b`, `?include= x`) are trimmed and their empty items
  // dropped by the server, which an item `pattern` cannot say (docs/api-documentation.md).
  const checkRequests =
    (globalThis as Record<string, unknown>)['__OPENAPI_REQUEST_CHECK_SKIP__'] !== true;
  if (checkRequests && request && status >= 200 && status < 300 && status !== 207) {
    violations.push(...contract.checkRequest(request).map((p) => `${p} → ${status}`));
  }
}

/** Header names and values of a fetch `headers` option, whatever its form. */
function headerRecord(headers: unknown): Record<string, string> {
  if (!headers) return {};
  if (headers instanceof Headers) return Object.fromEntries(headers.entries());
  if (Array.isArray(headers)) return Object.fromEntries(headers as [string, string][]);
  return Object.fromEntries(
    Object.entries(headers as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
  );
}

/** A request body as text when it can be read without consuming it; else undefined. */
function bodyText(body: unknown): string | undefined {
  if (body === undefined || body === null) return '';
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (Buffer.isBuffer(body) || body instanceof Uint8Array)
    return Buffer.from(body).toString('utf8');
  if (typeof body === 'object' && !('pipe' in body) && !(body instanceof ReadableStream)) {
    return JSON.stringify(body);
  }
  return undefined;
}

if (enabled) {
  const originalFetch = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const response = await originalFetch(input, init);
    const request = input instanceof Request ? input : undefined;
    const url = request?.url ?? (input instanceof URL ? input.href : (input as string));
    const method = init?.method ?? request?.method ?? 'GET';
    if (OpenApiContract.covers(new URL(url).pathname)) {
      // Only JSON documents are read (a copy of it); files (`Content-Disposition: attachment`)
      // and line streams (`application/x-ndjson`) pass unread, so a streamed export is neither
      // buffered nor delayed.
      const type = response.headers.get('content-type') ?? '';
      const file = /attachment/i.test(response.headers.get('content-disposition') ?? '');
      const document = /json/i.test(type) && !/ndjson/i.test(type) && !file;
      const text = document ? await response.clone().text() : '';
      const headers = { ...headerRecord(request?.headers), ...headerRecord(init?.headers) };
      if (init?.body instanceof URLSearchParams && !('content-type' in headers)) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
      }
      const sentBody = request && !init?.body ? undefined : bodyText(init?.body);
      const sent = sentBody === undefined ? undefined : { method, url, headers, body: sentBody };
      record(method, url, response.status, type, text, sent);
    }
    return response;
  };

  type Inject = (this: FastifyAdapter, ...args: unknown[]) => unknown;
  const prototype = FastifyAdapter.prototype as unknown as { inject: Inject };
  const originalInject = prototype.inject;
  prototype.inject = function (this: FastifyAdapter, ...args: unknown[]) {
    const result = originalInject.apply(this, args);
    const options = args[0] as
      | {
          method?: string;
          url?: string;
          path?: string;
          query?: Record<string, string | string[]> | string;
          headers?: Record<string, unknown>;
          payload?: unknown;
          body?: unknown;
        }
      | string
      | undefined;
    if (options === undefined || typeof (result as Promise<unknown>)?.then !== 'function') {
      return result;
    }
    const url = typeof options === 'string' ? options : (options.url ?? options.path ?? '/');
    const method = typeof options === 'string' ? 'GET' : (options.method ?? 'GET');
    let sent: SentRequest | undefined;
    if (typeof options === 'object') {
      const full = new URL(url, 'http://x');
      const query = options.query;
      if (typeof query === 'string') {
        for (const [k, v] of new URLSearchParams(query)) full.searchParams.append(k, v);
      } else if (query) {
        for (const [k, v] of Object.entries(query)) {
          for (const one of Array.isArray(v) ? v : [v]) full.searchParams.append(k, one);
        }
      }
      const headers = headerRecord(options.headers);
      const payload = options.payload ?? options.body;
      if (payload !== undefined && typeof payload === 'object' && !Buffer.isBuffer(payload)) {
        headers['content-type'] ??= 'application/json';
      }
      const body = bodyText(payload);
      if (body !== undefined)
        sent = { method, url: `${full.pathname}${full.search}`, headers, body };
    }
    return (
      result as Promise<{ statusCode: number; headers: Record<string, unknown>; payload: string }>
    ).then((res: { statusCode: number; headers: Record<string, unknown>; payload: string }) => {
      const type = res.headers['content-type'];
      record(method, url, res.statusCode, typeof type === 'string' ? type : '', res.payload, sent);
      return res;
    });
  };

  afterEach(() => {
    const found = violations.splice(0);
    if (found.length > 0) {
      throw new Error(`Answers that break docs/openapi.json:\n${[...new Set(found)].join('\n')}`);
    }
  });
}
