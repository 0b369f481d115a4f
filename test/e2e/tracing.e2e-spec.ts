import { createServer, type Server } from 'node:http';
import { TestEnvironment, waitFor } from '@wp/testing';
import { authDataSource } from '../../apps/auth/src/database/data-source.js';
import { ServiceProcess } from '../support/service-process.js';

interface OtlpSpan {
  traceId: string;
  name: string;
  attributes?: { key: string; value: { stringValue?: string } }[];
}

/** Spans of every OTLP/HTTP JSON export the receiver got. */
function spansOf(bodies: string[]): OtlpSpan[] {
  return bodies.flatMap((body) => {
    const doc = JSON.parse(body) as {
      resourceSpans?: { scopeSpans?: { spans?: OtlpSpan[] }[] }[];
    };
    return (doc.resourceSpans ?? []).flatMap((r) =>
      (r.scopeSpans ?? []).flatMap((s) => s.spans ?? []),
    );
  });
}

const attr = (span: OtlpSpan, key: string) =>
  span.attributes?.find((a) => a.key === key)?.value.stringValue;

/**
 * `OTEL_EXPORTER_OTLP_ENDPOINT` set (docs/operations.md § Tracing): a request produces an HTTP
 * server span carrying its request id and PostgreSQL spans in the same trace, exported to an
 * OTLP/HTTP receiver (here a tiny local one collecting POSTs).
 */
describe('OpenTelemetry tracing', () => {
  const env = new TestEnvironment();
  const bodies: string[] = [];
  let receiver: Server;
  let auth: ServiceProcess;
  let gateway: ServiceProcess;

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        if (req.url === '/v1/traces') bodies.push(body);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const { port } = receiver.address() as { port: number };
    await env.preparePlatform();
    await env.prepareDatabase('auth', authDataSource);
    const tracing = {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'info',
    };
    auth = await ServiceProcess.start('auth', { ...env.env, ...tracing }, { captureStdout: true });
    gateway = await ServiceProcess.start(
      'gateway',
      { ...env.env, ...tracing, AUTH_UPSTREAM_URL: auth.url },
      { captureStdout: true },
    );
  });
  afterAll(async () => {
    await gateway?.kill();
    await auth?.kill();
    receiver?.close();
    await env.cleanup();
  });

  it('exports the request span with its request id and its PostgreSQL spans', async () => {
    const res = await fetch(`${auth.url}/v1/api/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'api-key': env.keys.apiKey,
        'x-request-id': 'trace-me-42',
      },
      body: JSON.stringify({ username: 'nobody@example.com', password: 'whatever1' }),
    });
    expect(res.status).toBe(401);
    const server = await waitFor(
      () => spansOf(bodies).find((s) => attr(s, 'http.request.id') === 'trace-me-42'),
      { timeoutMs: 15_000, what: 'the HTTP server span with the request id' },
    );
    const queries = await waitFor(
      () => {
        const found = spansOf(bodies).filter(
          (s) =>
            s.traceId === server.traceId &&
            (attr(s, 'db.system.name') ?? attr(s, 'db.system')) === 'postgresql',
        );
        return found.length > 0 && found;
      },
      { timeoutMs: 15_000, what: 'PostgreSQL spans in the same trace' },
    );
    expect(queries.length).toBeGreaterThan(0);
  });

  it('logs and traces URLs without the credentials a client put in the query', async () => {
    const secrets = ['wpk_SECRET_KEY_1', 'eyJSECRET.ACCESS.2', 'SECRET_TOKEN_3', 'SECRET_CODE_4'];
    const query =
      `email=someone%40example.com&Api-Key=${secrets[0]}&access_token=${secrets[1]}` +
      `&TOKEN=${secrets[2]}&code=${secrets[3]}`;
    for (const base of [gateway.url, auth.url]) {
      const res = await fetch(`${base}/v1/api/users/validate/email?${query}`, {
        headers: { 'api-key': env.keys.apiKey, 'x-request-id': 'redact-me-13' },
      });
      expect(res.status).toBe(200);
      await res.text();
      // An unknown route's 404 text names the route, not the query.
      const unknown = await fetch(`${base}/v1/api/users/nope/nope?${query}`, {
        headers: { 'api-key': env.keys.apiKey },
      });
      expect(await unknown.text()).not.toContain('SECRET');
    }
    const traced = await waitFor(
      () => {
        // server spans: the gateway's and auth's for the call through the gateway (the request
        // id is forwarded), auth's for the direct call
        const found = spansOf(bodies).filter((s) => attr(s, 'http.request.id') === 'redact-me-13');
        return found.length >= 3 && spansOf(bodies);
      },
      { timeoutMs: 15_000, what: 'the spans of the requests with credentials in the query' },
    );
    const logLines = await waitFor(
      () => {
        const lines = [gateway.stdout, auth.stdout]
          .join('')
          .split('\n')
          .filter((line) => line.includes('/v1/api/users/validate/email'));
        return lines.length >= 3 && lines;
      },
      { timeoutMs: 10_000, what: 'the request log lines' },
    );
    const spanText = JSON.stringify(traced);
    for (const secret of secrets) {
      expect(spanText).not.toContain(secret);
      expect(logLines.join('\n')).not.toContain(secret);
      expect(gateway.stdout + auth.stdout).not.toContain(secret);
    }
    // What is kept: the route, the harmless parameter, and a mark where a credential was.
    expect(logLines.join('\n')).toContain('Api-Key=[redacted]');
    expect(logLines.join('\n')).toContain('email=someone%40example.com');
    const queries = traced.map((s) => attr(s, 'url.query')).filter(Boolean);
    expect(queries.join('\n')).toContain('access_token=[redacted]');
    expect(queries.join('\n')).toContain('TOKEN=[redacted]');
  });
});
