import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { LangfuseClient } from '@langfuse/client';
import { waitFor } from '@wp/testing';
import { AnalyticsTestApp, type TestProject } from '../support/analytics-test-app.js';

/**
 * The analytics feature: `POST /api/public/otel/v1/traces` (Langfuse opentelemetry.yml, OTLP/HTTP)
 * with the current Langfuse tracing stack — `@langfuse/otel`'s span processor in the OpenTelemetry
 * Node SDK — then the traces read back through the contract's endpoints. JSON (the processor's
 * default exporter) and protobuf with gzip (OpenTelemetry's own proto exporter).
 */
const run = promisify(execFile);

describe('OTLP ingestion with @langfuse/otel and the OpenTelemetry Node SDK', () => {
  let ctx: AnalyticsTestApp;
  let project: TestProject;
  let client: LangfuseClient;

  beforeAll(async () => {
    ctx = await AnalyticsTestApp.start();
    project = await ctx.createProject();
    client = new LangfuseClient({ ...project.keys, baseUrl: ctx.baseUrl });
  });
  afterAll(() => ctx.close());

  /**
   * Runs the Langfuse OTel stack in its own Node process (test/support/otel-emit.cjs): the OTLP
   * HTTP exporter imports `http` dynamically, which Jest's sandbox cannot serve.
   */
  async function emit(scenario: 'json' | 'proto'): Promise<string> {
    const { stdout } = await run(process.execPath, [
      join(__dirname, '../support/otel-emit.cjs'),
      JSON.stringify({ baseUrl: ctx.baseUrl, ...project.keys, scenario }),
    ]);
    return (JSON.parse(stdout.trim().split('\n').pop()!) as { traceId: string }).traceId;
  }

  it('maps a traced agent run (OTLP/JSON) to a trace with its observations, usage and cost', async () => {
    const traceId = await emit('json');
    const trace = await waitFor(() => client.api.trace.get(traceId), {
      timeoutMs: 2000,
      what: 'the trace',
    });
    expect(trace).toMatchObject({
      id: traceId,
      name: 'agent-run',
      userId: 'otel-user',
      sessionId: 'otel-session',
      tags: ['otel', 'v5'],
      input: { task: 'sum' },
      output: { result: 2 },
    });
    const byName = Object.fromEntries(trace.observations.map((o) => [o.name, o]));
    expect(Object.keys(byName).sort()).toEqual(['agent-run', 'calculator', 'llm-call']);
    expect(byName['agent-run'].type).toBe('SPAN');
    expect(byName['agent-run'].parentObservationId).toBeNull();
    expect(byName['llm-call']).toMatchObject({
      type: 'GENERATION',
      model: 'gpt-4o',
      modelParameters: { temperature: 0 },
      output: { content: '2' },
      usageDetails: { input: 200, output: 20, total: 220 },
      parentObservationId: byName['agent-run'].id,
    });
    expect(byName['llm-call'].calculatedTotalCost).toBeCloseTo(200 * 2.5e-6 + 20 * 1e-5, 12);
    expect(byName['calculator']).toMatchObject({ type: 'TOOL', input: { a: 1, b: 1 }, output: 2 });
    expect(trace.totalCost).toBeCloseTo(byName['llm-call'].calculatedTotalCost, 12);

    const listed = await client.api.trace.list({ userId: 'otel-user' });
    expect(listed.data.map((t) => t.id)).toEqual([traceId]);
    expect(listed.data[0].observations).toHaveLength(3);
  });

  it('accepts OTLP protobuf with gzip from the OpenTelemetry proto exporter', async () => {
    const traceId = await emit('proto');
    const trace = await waitFor(() => client.api.trace.get(traceId), {
      timeoutMs: 2000,
      what: 'the proto trace',
    });
    expect(trace).toMatchObject({
      id: traceId,
      name: 'proto-root',
      input: 'hello',
      output: 'world',
    });
    const generation = trace.observations.find((o) => o.name === 'proto-generation')!;
    expect(generation).toMatchObject({
      type: 'GENERATION',
      model: 'claude-3-5-sonnet',
      usageDetails: { input: 10, output: 2, total: 12 },
    });
    expect(generation.calculatedTotalCost).toBeCloseTo(10 * 3e-6 + 2 * 15e-6, 12);
  });

  it('maps raw OTLP/JSON spans: GenAI attributes, error status, parent links', async () => {
    const traceId = randomBytes(16).toString('hex');
    const rootId = randomBytes(8).toString('hex');
    const childId = randomBytes(8).toString('hex');
    const ns = (ms: number) =>
      (BigInt(Date.parse('2025-05-01T10:00:00Z') + ms) * 1_000_000n).toString();
    const body = {
      resourceSpans: [
        {
          resource: { attributes: [{ key: 'service.version', value: { stringValue: '1.2.3' } }] },
          scopeSpans: [
            {
              scope: { name: 'my-instrumentation', version: '0.1' },
              spans: [
                {
                  traceId,
                  spanId: childId,
                  parentSpanId: rootId,
                  name: 'chat gpt-4o-mini',
                  kind: 3,
                  startTimeUnixNano: ns(100),
                  endTimeUnixNano: ns(600),
                  attributes: [
                    { key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
                    { key: 'gen_ai.request.model', value: { stringValue: 'gpt-4o-mini' } },
                    { key: 'gen_ai.usage.input_tokens', value: { intValue: '1000' } },
                    { key: 'gen_ai.usage.output_tokens', value: { intValue: 100 } },
                  ],
                  status: { code: 2, message: 'rate limited' },
                },
                {
                  traceId,
                  spanId: rootId,
                  name: 'handle-request',
                  startTimeUnixNano: ns(0),
                  endTimeUnixNano: ns(1000),
                  attributes: [
                    { key: 'user.id', value: { stringValue: 'raw-user' } },
                    {
                      key: 'langfuse.trace.tags',
                      value: { arrayValue: { values: [{ stringValue: 'raw' }] } },
                    },
                  ],
                  status: {},
                },
              ],
            },
          ],
        },
      ],
    };
    const res = await ctx.request('POST', '/api/public/otel/v1/traces', {
      auth: project.basic,
      body: gzipSync(JSON.stringify(body)),
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});

    const trace = await client.api.trace.get(traceId);
    expect(trace).toMatchObject({
      name: 'handle-request',
      userId: 'raw-user',
      tags: ['raw'],
      timestamp: '2025-05-01T10:00:00.000Z',
      version: '1.2.3',
      latency: 1,
    });
    const child = trace.observations.find((o) => o.id === childId)!;
    expect(child).toMatchObject({
      type: 'GENERATION',
      model: 'gpt-4o-mini',
      level: 'ERROR',
      statusMessage: 'rate limited',
      parentObservationId: rootId,
      startTime: '2025-05-01T10:00:00.100Z',
      endTime: '2025-05-01T10:00:00.600Z',
      latency: 0.5,
      usageDetails: { input: 1000, output: 100, total: 1100 },
    });
    expect(child.calculatedTotalCost).toBeCloseTo(1000 * 0.15e-6 + 100 * 0.6e-6, 12);
  });

  it('refuses OTLP without valid Basic credentials (401) and a body that is not OTLP (400)', async () => {
    const noAuth = await ctx.request('POST', '/api/public/otel/v1/traces', {
      body: { resourceSpans: [] },
    });
    expect(noAuth.status).toBe(401);
    expect(noAuth.body).toMatchObject({
      error: 'UnauthorizedError',
      message: 'No authorization header',
    });
    const garbage = await ctx.request('POST', '/api/public/otel/v1/traces', {
      auth: project.basic,
      body: new Uint8Array([0x0a, 0xff, 0xff, 0xff]),
      headers: { 'content-type': 'application/x-protobuf' },
    });
    expect(garbage.status).toBe(400);
    expect(garbage.body).toMatchObject({ message: 'Invalid request data', code: 'invalid_body' });
  });
});
