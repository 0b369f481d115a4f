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
    auth = await ServiceProcess.start('auth', {
      ...env.env,
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
  });
  afterAll(async () => {
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
});
