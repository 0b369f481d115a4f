// Jest setup (every project, jest.preset.js): each answer of the published API that a test
// receives — through `fetch` (PlatformStack.request, the gateway, the SDK) or a Nest app's
// `inject` (the services' own e2e suites) — is checked against docs/openapi.json by
// OpenApiContract; a test whose traffic breaks the document fails in its afterEach.
// `OPENAPI_CONTRACT=off` turns the check off; `OPENAPI_CONTRACT_FILE` checks against another file.
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { OpenApiContract } from './openapi-contract.js';

const enabled = process.env['OPENAPI_CONTRACT'] !== 'off';
let contract: OpenApiContract | undefined;
const violations: string[] = [];

function record(method: string, url: string, status: number, type: string, body: string): void {
  // A suite whose upstreams are stand-ins (the gateway's own tests) opts out.
  if ((globalThis as Record<string, unknown>)['__OPENAPI_CONTRACT_SKIP__'] === true) return;
  const path = new URL(url, 'http://x').pathname;
  if (!OpenApiContract.covers(path)) return;
  contract ??= OpenApiContract.fromFile(process.env['OPENAPI_CONTRACT_FILE']);
  violations.push(...contract.check(method, url, status, type, body));
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
      record(method, url, response.status, type, text);
    }
    return response;
  };

  type Inject = (this: FastifyAdapter, ...args: unknown[]) => unknown;
  const prototype = FastifyAdapter.prototype as unknown as { inject: Inject };
  const originalInject = prototype.inject;
  prototype.inject = function (this: FastifyAdapter, ...args: unknown[]) {
    const result = originalInject.apply(this, args);
    const options = args[0] as
      { method?: string; url?: string; path?: string } | string | undefined;
    if (options === undefined || typeof (result as Promise<unknown>)?.then !== 'function') {
      return result;
    }
    const url = typeof options === 'string' ? options : (options.url ?? options.path ?? '/');
    const method = typeof options === 'string' ? 'GET' : (options.method ?? 'GET');
    return (
      result as Promise<{ statusCode: number; headers: Record<string, unknown>; payload: string }>
    ).then((res: { statusCode: number; headers: Record<string, unknown>; payload: string }) => {
      const type = res.headers['content-type'];
      record(method, url, res.statusCode, typeof type === 'string' ? type : '', res.payload);
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
