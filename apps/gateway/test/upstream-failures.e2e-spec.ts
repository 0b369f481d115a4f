import { createServer, type Server } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@wp/config';
import { ApiKeyRegistry, hashApiKey } from '@wp/security';
import { TestEnvironment } from '@wp/testing';
import { gatewayConfigSchema } from '../src/config/gateway.config.js';
import { createGatewayApp } from '../src/gateway.app.js';

/**
 * What a client sees through the gateway when a service is down, crashing, draining or broken
 * (docs/architecture.md § Upstream failures at the gateway): refused and reset connections are
 * 503 with `Retry-After` and the JSON:API body (they were 502), an answer that is not HTTP stays
 * 502; with several replicas configured, a request that certainly did not run goes to another
 * one — a refused connection, or a replica's shutdown 503 (`Connection: close`) — so the client
 * sees the healthy replica's answer.
 */
describe('gateway: upstreams down, draining or broken', () => {
  const env = new TestEnvironment();
  const apiKey = 'wpk_upstream_failures_key_0123456789';
  let healthy: FastifyInstance;
  let draining: FastifyInstance;
  let drainingHits = 0;
  let reset: Server;
  let garbage: Server;
  const gateways: NestFastifyApplication[] = [];

  /** A TCP server that does `onSocket` with every connection. */
  const rawServer = async (onSocket: (socket: import('node:net').Socket) => void) => {
    const server = createServer(onSocket);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return server;
  };
  const urlOf = (server: Server) =>
    `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  /** A port nothing listens on: taken from the OS, then closed. */
  const refusedUrl = async () => {
    const server = await rawServer(() => undefined);
    const url = urlOf(server);
    await new Promise((resolve) => server.close(resolve));
    return url;
  };
  const gateway = async (upstreams: Record<string, string>) => {
    const app = await createGatewayApp(
      loadConfig(gatewayConfigSchema, {
        ...env.env,
        GATEWAY_UPSTREAM_TIMEOUT_MS: '2000',
        ...upstreams,
      }),
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    gateways.push(app);
    return `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
  };
  const call = (base: string, path: string, init: RequestInit = {}) =>
    fetch(`${base}${path}`, {
      ...init,
      headers: { 'api-key': apiKey, 'content-type': 'application/json', ...init.headers },
    });

  let single: string;
  let replicated: string;

  beforeAll(async () => {
    (globalThis as Record<string, unknown>)['__OPENAPI_CONTRACT_SKIP__'] = true;
    await env.preparePlatform(); // embedded mode: the API keys' table
    await env.vouchFor(['auth']); // the registry is whole: other keys are unknown

    healthy = Fastify();
    healthy.all('/*', (request) =>
      request.body === undefined
        ? { from: 'healthy' }
        : { from: 'healthy', received: JSON.stringify(request.body).length },
    );
    await healthy.listen({ port: 0, host: '127.0.0.1' });
    // What a service answers while it shuts down (docs/operations.md § Shutdown).
    draining = Fastify();
    draining.all('/*', async (_request, reply) => {
      drainingHits += 1;
      return reply
        .code(503)
        .header('retry-after', '1')
        .header('connection', 'close')
        .send({ errors: [{ status: '503', code: 'UNAVAILABLE', title: 'Service unavailable' }] });
    });
    await draining.listen({ port: 0, host: '127.0.0.1' });
    reset = await rawServer((socket) => socket.once('data', () => socket.resetAndDestroy()));
    garbage = await rawServer((socket) =>
      socket.once('data', () => socket.end('this is not HTTP\r\n\r\n')),
    );

    const healthyUrl = `http://127.0.0.1:${(healthy.server.address() as { port: number }).port}`;
    const drainingUrl = `http://127.0.0.1:${(draining.server.address() as { port: number }).port}`;
    single = await gateway({
      AUTH_UPSTREAM_URL: await refusedUrl(),
      ORG_UPSTREAM_URL: urlOf(garbage),
      WALLET_UPSTREAM_URL: healthyUrl,
      ANALYTICS_UPSTREAM_URL: urlOf(reset),
    });
    replicated = await gateway({
      AUTH_UPSTREAM_URL: healthyUrl,
      ORG_UPSTREAM_URL: `${drainingUrl},${healthyUrl}`,
      WALLET_UPSTREAM_URL: `${await refusedUrl()},${healthyUrl}`,
      ANALYTICS_UPSTREAM_URL: healthyUrl,
    });
    // Registered as an operator would (Redis `api_keys` or the platform database's `api_key`).
    await gateways[0].get(ApiKeyRegistry).add(hashApiKey(apiKey), 'app-1');
  });
  afterAll(async () => {
    for (const app of gateways) await app.close();
    await healthy?.close();
    await draining?.close();
    reset?.close();
    garbage?.close();
    await env.cleanup();
  });

  const expectUnavailable = async (res: Response, service: string) => {
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    const body = (await res.json()) as {
      errors: { status: string; code: string; detail: string }[];
    };
    expect(body.errors[0]).toMatchObject({ status: '503', code: 'UPSTREAM_UNAVAILABLE' });
    expect(body.errors[0].detail).toContain(service);
  };

  it('answers a refused connection 503 with Retry-After and the JSON:API body', async () => {
    await expectUnavailable(
      await call(single, '/v1/api/users/validate/email?email=a@b.co'),
      'auth',
    );
    await expectUnavailable(
      await call(single, '/v1/api/users', { method: 'POST', body: JSON.stringify({ a: 1 }) }),
      'auth',
    );
  });

  it('answers a connection reset without an answer 503 too', async () => {
    await expectUnavailable(await call(single, '/api/public/traces'), 'analytics');
  });

  it('keeps 502 for an upstream that answers something that is not HTTP', async () => {
    const res = await call(single, '/v1/api/organizations');
    expect(res.status).toBe(502);
    expect(res.headers.get('retry-after')).toBeNull();
    expect(((await res.json()) as { errors: { code: string }[] }).errors[0].code).toBe(
      'BAD_GATEWAY',
    );
  });

  it('sends a refused request to the other replica, and soon every request', async () => {
    for (let i = 0; i < 20; i++) {
      const res = await call(replicated, `/v1/api/wallets?i=${i}`);
      expect({ i, status: res.status }).toEqual({ i, status: 200 });
      expect(await res.json()).toEqual({ from: 'healthy' });
    }
    const body = JSON.stringify({ transaction: { amount: 1 } });
    // A body is not sent twice: a request that meets the refusing replica gets 503. But that
    // replica is passed over for a second after each refusal, so few do.
    let ok = 0;
    for (let i = 0; i < 10; i++) {
      const res = await call(replicated, '/v1/api/wallets/transact', { method: 'POST', body });
      if (res.status === 200) {
        ok += 1;
        expect(await res.json()).toEqual({ from: 'healthy', received: body.length });
      } else {
        await expectUnavailable(res, 'wallet');
      }
    }
    expect(ok).toBeGreaterThanOrEqual(8);
  });

  it("retries a replica's shutdown 503 on the other one; a request with a body gets the 503", async () => {
    drainingHits = 0;
    for (let i = 0; i < 20; i++) {
      const res = await call(replicated, `/v1/api/organizations?i=${i}`);
      expect({ i, status: res.status }).toEqual({ i, status: 200 });
    }
    expect(drainingHits).toBeGreaterThan(0); // replicas take turns: some went there
    const statuses = new Set<number>();
    for (let i = 0; i < 20; i++) {
      const res = await call(replicated, '/v1/api/organizations', {
        method: 'POST',
        body: JSON.stringify({ data: { i } }),
      });
      statuses.add(res.status);
      if (res.status === 503) expect(res.headers.get('retry-after')).toBe('1');
      await res.arrayBuffer();
    }
    expect([...statuses].sort()).toEqual([200, 503]);
  });
});
