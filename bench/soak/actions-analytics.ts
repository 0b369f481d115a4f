import { randomUUID } from 'node:crypto';
import { basic, call, type Account } from './world.js';
import { status, type Action, type MixContext } from './mix-kit.js';

/**
 * Analytics with the projects' key pairs: Langfuse batches, OTLP exports, trace lists (plain and
 * filtered), trace details and daily metrics.
 */
export function analyticsActions(ctx: MixContext): Action[] {
  const { gw, pick } = ctx;
  const traceIds: { account: Account; id: string }[] = [];
  return [
    {
      name: 'analytics batch',
      weight: 6,
      run: async () => {
        const a = pick();
        const { events, traceId } = analyticsBatch();
        const res = await call(gw, 'POST', '/api/public/ingestion', {
          headers: { authorization: basic(a.keys) },
          body: { batch: events },
        });
        if (res.status !== 207) return `HTTP ${res.status}`;
        traceIds.push({ account: a, id: traceId });
        if (traceIds.length > 1000) traceIds.shift();
        return true;
      },
    },
    {
      name: 'analytics traces',
      weight: 3,
      run: async () => {
        const a = pick();
        return status(200)(
          await call(gw, 'GET', '/api/public/traces?limit=20', {
            headers: { authorization: basic(a.keys) },
          }),
        );
      },
    },
    {
      name: 'analytics trace',
      weight: 1.5,
      run: async () => {
        const t = traceIds[Math.floor(Math.random() * traceIds.length)];
        if (!t) return true;
        return status(200)(
          await call(gw, 'GET', `/api/public/traces/${t.id}`, {
            headers: { authorization: basic(t.account.keys) },
          }),
        );
      },
    },
    {
      name: 'analytics metrics',
      weight: 2,
      run: async () => {
        const a = pick();
        const now = Date.now();
        const query = new URLSearchParams({
          fromTimestamp: new Date(now - 7 * 86_400_000).toISOString(),
          toTimestamp: new Date(now).toISOString(),
        });
        const path = `/api/public/metrics/daily?${query.toString()}`;
        return status(200)(
          await call(gw, 'GET', path, { headers: { authorization: basic(a.keys) } }),
        );
      },
    },
    {
      name: 'analytics traces (filtered)',
      weight: 1,
      run: async () => {
        const a = pick();
        const query = new URLSearchParams({
          userId: `end-user-${Math.floor(Math.random() * 100)}`,
          name: 'chat-0',
          tags: 'soak',
          orderBy: 'timestamp.desc',
          limit: '10',
        });
        return status(200)(
          await call(gw, 'GET', `/api/public/traces?${query.toString()}`, {
            headers: { authorization: basic(a.keys) },
          }),
        );
      },
    },
    {
      name: 'analytics OTLP export',
      weight: 2,
      run: async () => {
        const a = pick();
        return status(200)(
          await call(gw, 'POST', '/api/public/otel/v1/traces', {
            headers: { authorization: basic(a.keys) },
            body: otlpExport(),
          }),
        );
      },
    },
  ];
}

/** One OTLP/HTTP JSON export: a trace of an LLM call (root span and a generation span). */
function otlpExport(): unknown {
  const hex = (bytes: number) =>
    randomUUID()
      .replace(/-/g, '')
      .slice(0, bytes * 2);
  const traceId = hex(16);
  const root = hex(8);
  const now = BigInt(Date.now()) * 1_000_000n;
  const span = (spanId: string, name: string, parent?: string, model?: string) => ({
    traceId,
    spanId,
    ...(parent ? { parentSpanId: parent } : {}),
    name,
    startTimeUnixNano: String(now - 2_000_000_000n),
    endTimeUnixNano: String(now),
    attributes: [
      { key: 'langfuse.trace.name', value: { stringValue: 'otel-chat' } },
      ...(model
        ? [
            { key: 'gen_ai.request.model', value: { stringValue: model } },
            { key: 'gen_ai.usage.input_tokens', value: { intValue: '120' } },
            { key: 'gen_ai.usage.output_tokens', value: { intValue: '40' } },
          ]
        : []),
    ],
  });
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'soak' } }] },
        scopeSpans: [
          {
            scope: { name: 'soak' },
            spans: [span(root, 'handle'), span(hex(8), 'llm', root, 'gpt-4o-mini')],
          },
        ],
      },
    ],
  };
}

/** Two traces of a chat app, each with a generation and a span (Langfuse ingestion events). */
function analyticsBatch(): { events: unknown[]; traceId: string } {
  const ts = new Date().toISOString();
  const e = (type: string, body: object) => ({ id: randomUUID(), timestamp: ts, type, body });
  const events: unknown[] = [];
  let traceId = '';
  for (let t = 0; t < 2; t++) {
    traceId = randomUUID();
    events.push(
      e('trace-create', {
        id: traceId,
        timestamp: ts,
        name: `chat-${t}`,
        userId: `end-user-${Math.floor(Math.random() * 100)}`,
        tags: ['soak'],
        input: { q: 'hello' },
      }),
      e('generation-create', {
        id: randomUUID(),
        traceId,
        startTime: ts,
        endTime: ts,
        model: 'gpt-4o',
        usage: { input: 500, output: 50 },
        input: [{ role: 'user', content: 'hi' }],
        output: 'hello',
      }),
      e('span-create', {
        id: randomUUID(),
        traceId,
        startTime: ts,
        endTime: ts,
        name: 'retrieval',
      }),
    );
  }
  return { events, traceId };
}
