import {
  expectJsonApiError,
  expectLangfuseError,
  open,
  raw,
  readAnswer,
  type RawAnswer,
} from '../support/raw-http.js';
import { PlatformStack, type ServiceName } from '../support/stack.js';

type ProcessName = ServiceName | 'gateway';

/** The process's one error format: JSON:API, Langfuse's for analytics. */
function expectErrorOf(
  name: ProcessName,
  answer: RawAnswer,
  status: number,
  codes: { jsonApi?: string; langfuse: string },
): void {
  if (name === 'analytics') expectLangfuseError(answer, status, codes.langfuse);
  else expectJsonApiError(answer, status, codes.jsonApi);
}

const get = (path: string, headers = '') =>
  `GET ${path} HTTP/1.1\r\nHost: localhost\r\n${headers}\r\n`;

/**
 * Every answer of every process uses the JSON:API error body (docs/decisions.md § Wire format),
 * also the ones Fastify and Node's HTTP parser give before any route runs, and the 503 of a
 * process that is shutting down. Checked on the gateway and on the services behind it, with
 * requests written on raw sockets (a client can send anything).
 */
describe('error bodies of the gateway and the services, whatever went wrong', () => {
  let stack: PlatformStack;
  const port = (name: ServiceName | 'gateway') =>
    name === 'gateway' ? Number(new URL(stack.gatewayUrl).port) : (stack.ports.get(name) as number);

  beforeAll(async () => {
    stack = await PlatformStack.start();
  });
  afterAll(() => stack.close());

  const processes = ['gateway', 'auth', 'org', 'wallet', 'analytics'] as const;

  const notFound = { jsonApi: 'NOT_FOUND', langfuse: 'resource_not_found' };
  const badRequest = { jsonApi: 'BAD_REQUEST', langfuse: 'invalid_request' };

  it.each(processes)('%s: an unknown route is a 404 in its error format', async (name) => {
    expectErrorOf(name, await raw(port(name), get('/v1/api/no-such-route')), 404, notFound);
    expectErrorOf(name, await raw(port(name), get('/nope')), 404, notFound);
  });

  it.each(processes)(
    '%s: a path that does not percent-decode is a 400 in its error format',
    async (name) => {
      const answer = await raw(port(name), get('/v1/api/organizations/%E0%A4%A'));
      expectErrorOf(name, answer, 400, badRequest);
      expect(JSON.stringify(answer.body)).toContain('The request path is not a valid URL.');
    },
  );

  it.each(processes)('%s: no Strict-Transport-Security unless configured', async (name) => {
    const answers = [
      await raw(port(name), get('/nope')),
      await raw(port(name), 'NOT-HTTP\r\n\r\n'),
    ];
    for (const answer of answers) {
      expect(answer.headers['strict-transport-security']).toBeUndefined();
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it.each(processes)('%s: malformed HTTP is a 400 in its error format', async (name) => {
    expectErrorOf(name, await raw(port(name), 'NOT-HTTP\r\n\r\n'), 400, badRequest);
  });

  it.each(processes)(
    '%s: headers over the size limit are a 431 in its error format',
    async (name) => {
      const answer = await raw(port(name), get('/health/live', `X-Big: ${'a'.repeat(70_000)}\r\n`));
      expectErrorOf(name, answer, 431, {
        jsonApi: 'HEADERS_TOO_LARGE',
        langfuse: 'invalid_request',
      });
    },
  );

  it('a service: a path parameter over the length limit is a JSON:API 414', async () => {
    const answer = await raw(port('org'), get(`/v1/api/organizations/${'1'.repeat(150)}`));
    expectJsonApiError(answer, 414, 'URI_TOO_LONG');
  });

  it('the gateway passes a long path on; the service answers its 414', async () => {
    const key = `Api-Key: ${stack.apiKey}\r\n`;
    const answer = await raw(
      port('gateway'),
      get(`/v1/api/organizations/1/projects/${'2'.repeat(150)}`, key),
    );
    expectJsonApiError(answer, 414, 'URI_TOO_LONG');
  });

  it.each([
    '/v1/api/organizations/..%2F..%2Fetc',
    '/v1/api/organizations/../../etc',
    '/v1/api/users/%2e%2e/%2e%2e/metrics',
    'http://elsewhere.example/v1/api/organizations',
  ])('the gateway: a path that leaves its route (%s) is a JSON:API 400', async (path) => {
    const answer = await raw(port('gateway'), get(path, `Api-Key: ${stack.apiKey}\r\n`));
    expectJsonApiError(answer, 400, 'BAD_REQUEST');
  });

  const request = (method: string, path: string, headers = '') =>
    `${method} ${path} HTTP/1.1\r\nHost: localhost\r\n${headers}\r\n`;

  it.each(processes)(
    '%s: methods nothing routes (OPTIONS without CORS, PROPFIND, TRACE) are a 404 in its error format',
    async (name) => {
      const key = `Api-Key: ${stack.apiKey}\r\n`;
      for (const method of ['OPTIONS', 'PROPFIND', 'TRACE']) {
        const path = name === 'analytics' ? '/api/public/traces' : '/v1/api/organizations';
        expectErrorOf(name, await raw(port(name), request(method, path, key)), 404, notFound);
      }
    },
  );

  const bodyRoutes: Record<ProcessName, string> = {
    gateway: '/v1/api/organizations',
    auth: '/v1/api/users',
    org: '/v1/api/organizations',
    wallet: '/v1/api/wallets/transact',
    analytics: '/api/public/ingestion',
  };

  it.each(processes)('%s: a body it cannot read is a 415 in its error format', async (name) => {
    const answer = await raw(
      port(name),
      request(
        'POST',
        bodyRoutes[name],
        `Api-Key: ${stack.apiKey}\r\nContent-Type: application/xml\r\nContent-Length: 7\r\n`,
      ) + '<a></a>',
    );
    // The gateway streams every media type on; the service behind it refuses it.
    expectErrorOf(name, answer, 415, {
      jsonApi: 'UNSUPPORTED_MEDIA_TYPE',
      langfuse: 'invalid_request',
    });
  });

  /**
   * A request that is arriving when the process begins to shut down: its first bytes are on
   * the wire (so the server waits for it rather than dropping an idle connection), the rest
   * comes once `close()` has started.
   */
  const requestWhileClosing = async (name: ProcessName, path: string): Promise<RawAnswer> => {
    const socket = await open(port(name));
    try {
      const answer = readAnswer(socket);
      socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const closed = stack.apps.get(name)!.close();
      socket.write(`Api-Key: ${stack.apiKey}\r\n\r\n`);
      const result = await answer;
      await closed;
      stack.apps.delete(name);
      return result;
    } finally {
      socket.destroy();
    }
  };

  it('a service that is shutting down answers a JSON:API 503 with Retry-After', async () => {
    const answer = await requestWhileClosing('org', '/v1/api/organizations');
    expectJsonApiError(answer, 503, 'UNAVAILABLE');
    expect(answer.headers['retry-after']).toBe('1');
    expect(answer.headers['connection']).toBe('close');
  });

  it('the gateway that is shutting down answers a JSON:API 503 with Retry-After', async () => {
    const answer = await requestWhileClosing('gateway', '/v1/api/oauth/jwks.json');
    expectJsonApiError(answer, 503, 'UNAVAILABLE');
    expect(answer.headers['retry-after']).toBe('1');
  });
});
