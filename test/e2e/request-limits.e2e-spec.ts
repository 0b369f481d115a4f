import { PlatformStack, type ServiceName } from '../support/stack.js';

/** `{"data": [[[…]]]}`: `levels` arrays inside one object. */
const nestedBody = (levels: number) => `{"data":${'['.repeat(levels)}${']'.repeat(levels)}}`;

/**
 * Bodies nested deeper than `HTTP_MAX_JSON_DEPTH` (default 64) are refused with 400 before
 * anything walks them (docs/decisions.md § Wire format, "Nesting depth"): by the gateway's byte
 * scan of the bodies it streams, and by every service's JSON parser when called directly.
 * 10,000 and 100,000 levels (20 and 200 KB, under the body limit) overflowed class-transformer's
 * stack: 500.
 */
describe('JSON bodies nested too deep', () => {
  let stack: PlatformStack;
  let token: string;

  beforeAll(async () => {
    stack = await PlatformStack.start();
    const user = await stack.request('POST', '/v1/api/users', {
      body: { username: 'deep@example.com', password: 'a long password' },
    });
    token = user.body.data.attributes.accessToken;
  });
  afterAll(() => stack.close());

  const post = (path: string, body: string, baseUrl?: string) =>
    fetch(`${baseUrl ?? stack.gatewayUrl}${path}`, {
      method: 'POST',
      headers: {
        'api-key': stack.apiKey,
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
      },
      body,
    });
  const direct = (service: ServiceName) => `http://127.0.0.1:${stack.ports.get(service)}`;

  const routes: [string, ServiceName][] = [
    ['/v1/api/organizations', 'org'],
    ['/v1/api/users', 'auth'],
    ['/v1/api/wallets/transact', 'wallet'],
  ];

  it.each(routes)(
    '%s: 10,000 and 100,000 levels are a JSON:API 400, through the gateway and directly',
    async (path, service) => {
      for (const levels of [10_000, 100_000]) {
        for (const baseUrl of [undefined, direct(service)]) {
          const res = await post(path, nestedBody(levels), baseUrl);
          expect({ levels, via: baseUrl ?? 'gateway', status: res.status }).toEqual({
            levels,
            via: baseUrl ?? 'gateway',
            status: 400,
          });
          expect(res.headers.get('content-type')).toMatch(/^application\/json/);
          const body: any = await res.json();
          expect(body.errors[0]).toMatchObject({
            status: '400',
            code: 'VALIDATION_FAILED',
            source: { pointer: '' },
            detail: expect.stringContaining('deeper than 64 levels'),
          });
        }
      }
    },
  );

  it('the limit itself is accepted: 64 levels reach validation (a 400 naming the field)', async () => {
    const res = await post('/v1/api/organizations', nestedBody(63));
    expect(res.status).toBe(400);
    const body: any = await res.json();
    expect(body.errors[0].source.pointer).not.toBe('');
  });

  it('analytics refuses it with 400 in Langfuse shape, through the gateway and directly', async () => {
    for (const baseUrl of [undefined, direct('analytics')]) {
      const res = await fetch(`${baseUrl ?? stack.gatewayUrl}/api/public/ingestion`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Basic cGs6c2s=' },
        body: nestedBody(100_000),
      });
      expect(res.status).toBe(400);
      const body: any = await res.json();
      if (baseUrl === undefined) {
        // The gateway's own refusal: JSON:API, like every answer the gateway writes itself
        // (docs/analytics.md § Errors).
        expect(body.errors[0].code).toBe('VALIDATION_FAILED');
      } else {
        expect(body).toMatchObject({ code: 'invalid_request', error: 'InvalidRequestError' });
      }
    }
  });

  it('a deep body sent in chunks is refused by the gateway too', async () => {
    const text = nestedBody(10_000);
    const chunks = [text.slice(0, 30), text.slice(30, 9000), text.slice(9000)];
    const res = await fetch(`${stack.gatewayUrl}/v1/api/wallets/transact`, {
      method: 'POST',
      headers: {
        'api-key': stack.apiKey,
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
      },
      body: new ReadableStream({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
          controller.close();
        },
      }),
      duplex: 'half',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).errors[0].code).toBe('VALIDATION_FAILED');
  });
});
