import { randomUUID } from 'node:crypto';
import { AnalyticsTestApp, event, type TestProject } from '../support/analytics-test-app.js';

/**
 * `POST /api/public/ingestion` semantics (Langfuse ingestion.yml; docs/analytics.md § Ingestion
 * semantics): 207 with per-event results, per-event validation, dedupe by event id, upsert by body
 * id with merge, the 3.5 MB batch limit, and reads that see a write as soon as it is answered.
 */
describe('POST /api/public/ingestion', () => {
  let ctx: AnalyticsTestApp;
  let project: TestProject;

  beforeAll(async () => {
    ctx = await AnalyticsTestApp.start({ ANALYTICS_INGESTION_MAX_BYTES: String(200_000) });
    project = await ctx.createProject();
  });
  afterAll(() => ctx.close());

  const ingest = (batch: unknown[], extra: Record<string, unknown> = {}) =>
    ctx.request('POST', '/api/public/ingestion', {
      auth: project.basic,
      body: { batch, ...extra },
    });
  const getTrace = (id: string) =>
    ctx.request('GET', `/api/public/traces/${encodeURIComponent(id)}`, { auth: project.basic });

  it('answers 207 with a 400 entry per bad event and still writes the good ones', async () => {
    const traceId = randomUUID();
    const good = event('trace-create', { id: traceId, name: 'kept' });
    const badTime = {
      ...event('span-create', { id: randomUUID(), traceId }),
      timestamp: 'yesterday',
    };
    const badType = event('teleport-create', { id: randomUUID() });
    const badBody = event('generation-create', {
      id: randomUUID(),
      traceId,
      usage: { input: 'many' },
    });
    const badScore = event('score-create', { name: 'x', traceId, value: 2, dataType: 'BOOLEAN' });
    const noId = { timestamp: new Date().toISOString(), type: 'trace-create', body: {} };
    const res = await ingest([good, badTime, badType, badBody, badScore, noId]);
    expect(res.status).toBe(207);
    expect(res.body.successes).toEqual([{ id: good.id, status: 201 }]);
    expect(res.body.errors.map((e: { id: string }) => e.id)).toEqual([
      badTime.id,
      badType.id,
      badBody.id,
      badScore.id,
      'unknown',
    ]);
    for (const e of res.body.errors) {
      expect(e).toMatchObject({ status: 400, message: 'Invalid request data' });
      expect(typeof e.error).toBe('string');
    }
    expect(res.body.errors[0].error).toMatch(/^timestamp:/);
    expect(res.body.errors[1].error).toMatch(/unknown event type "teleport-create"/);
    expect(res.body.errors[2].error).toMatch(/^body\.usage/);
    expect(res.body.errors[3].error).toMatch(/0 or 1/);
    expect((await getTrace(traceId)).body.name).toBe('kept');
  });

  it("answers 400 in Langfuse's shape when the body is not {batch: [...]}", async () => {
    const res = await ctx.request('POST', '/api/public/ingestion', {
      auth: project.basic,
      body: { events: [] },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: 'Invalid request data', code: 'invalid_body' });
    expect(res.body.error[0]).toMatchObject({ path: ['batch'] });
  });

  it('answers 413 beyond the batch limit without writing anything', async () => {
    const traceId = randomUUID();
    const big = event('trace-create', { id: traceId, input: 'x'.repeat(250_000) });
    const res = await ingest([big]);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ error: 'PayloadTooLargeError', code: 'payload_too_large' });
    expect((await getTrace(traceId)).status).toBe(404);
  });

  it('applies an event id once: a retried batch does not undo later updates', async () => {
    const traceId = randomUUID();
    const create = event('trace-create', { id: traceId, name: 'first' });
    await ingest([create]);
    await ingest([event('trace-create', { id: traceId, name: 'second' })]);
    const retry = await ingest([create]); // the SDK retrying the first batch
    expect(retry.body).toEqual({ successes: [{ id: create.id, status: 201 }], errors: [] });
    expect((await getTrace(traceId)).body.name).toBe('second');
  });

  it('merges updates into the stored trace and observation (upsert by body id)', async () => {
    const traceId = randomUUID();
    const spanId = randomUUID();
    const t0 = new Date('2025-06-01T08:00:00.000Z');
    await ingest([
      event('trace-create', {
        id: traceId,
        timestamp: t0.toISOString(),
        name: 'merge',
        userId: 'u',
        tags: ['b'],
        metadata: { a: 1, nested: { x: 1 } },
      }),
      event('span-create', {
        id: spanId,
        traceId,
        name: 'step',
        startTime: t0.toISOString(),
        input: 'in',
      }),
    ]);
    await ingest([
      event('trace-create', {
        id: traceId,
        timestamp: '2030-01-01T00:00:00.000Z', // immutable once created
        tags: ['a'],
        metadata: { nested: { y: 2 } },
        output: 'done',
      }),
      event('span-update', {
        id: spanId,
        traceId,
        endTime: '2025-06-01T08:00:02.000Z',
        output: 'out',
      }),
    ]);
    const { body } = await getTrace(traceId);
    expect(body).toMatchObject({
      name: 'merge',
      userId: 'u',
      output: 'done',
      timestamp: t0.toISOString(),
      tags: ['a', 'b'],
      metadata: { a: 1, nested: { x: 1, y: 2 } },
      latency: 2,
    });
    expect(body.observations).toHaveLength(1);
    expect(body.observations[0]).toMatchObject({
      id: spanId,
      name: 'step',
      input: 'in',
      output: 'out',
      startTime: t0.toISOString(),
      endTime: '2025-06-01T08:00:02.000Z',
      latency: 2,
    });
  });

  it('recomputes cost when a generation-update brings usage, and keeps a sent cost as is', async () => {
    const traceId = randomUUID();
    const priced = randomUUID();
    const given = randomUUID();
    await ingest([
      event('trace-create', { id: traceId }),
      event('generation-create', { id: priced, traceId, model: 'gpt-4o' }),
      event('generation-create', {
        id: given,
        traceId,
        model: 'gpt-4o',
        usageDetails: { input: 10, output: 10 },
        costDetails: { input: 1, output: 2 },
      }),
    ]);
    await ingest([
      event('generation-update', {
        id: priced,
        traceId,
        usage: { promptTokens: 1000, completionTokens: 100, totalTokens: 1100 },
      }),
    ]);
    const { body } = await getTrace(traceId);
    const p = body.observations.find((o: { id: string }) => o.id === priced);
    const g = body.observations.find((o: { id: string }) => o.id === given);
    expect(p.usageDetails).toEqual({ input: 1000, output: 100, total: 1100 });
    expect(p.calculatedTotalCost).toBeCloseTo(1000 * 2.5e-6 + 100 * 1e-5, 12);
    expect(p.modelId).toBe('seed:gpt-4o');
    expect(g.costDetails).toEqual({ input: 1, output: 2, total: 3 });
    expect(g.calculatedTotalCost).toBe(3);
    expect(body.totalCost).toBeCloseTo(3 + p.calculatedTotalCost, 12);
  });

  it('reads OpenAI usage details with cached tokens and prices them separately', async () => {
    const traceId = randomUUID();
    const id = randomUUID();
    await ingest([
      event('generation-create', {
        id,
        traceId,
        model: 'gpt-4o-2024-08-06',
        usageDetails: {
          prompt_tokens: 1000,
          completion_tokens: 100,
          total_tokens: 1100,
          prompt_tokens_details: { cached_tokens: 400 },
        },
      }),
    ]);
    const { body } = await getTrace(traceId);
    expect(body.observations[0].usageDetails).toEqual({
      input: 600,
      input_cached_tokens: 400,
      output: 100,
      total: 1100,
    });
    expect(body.observations[0].calculatedTotalCost).toBeCloseTo(
      600 * 2.5e-6 + 400 * 1.25e-6 + 100 * 1e-5,
      12,
    );
  });

  it('creates the trace an observation refers to when no trace-create came', async () => {
    const traceId = randomUUID();
    const start = '2025-07-01T00:00:05.000Z';
    await ingest([
      event('event-create', { id: randomUUID(), traceId, name: 'orphan', startTime: start }),
    ]);
    const { status, body } = await getTrace(traceId);
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: traceId, name: null, timestamp: start });
    // a later trace-create still sets the trace's own timestamp
    await ingest([
      event('trace-create', { id: traceId, name: 'late', timestamp: '2025-07-01T00:00:00.000Z' }),
    ]);
    expect((await getTrace(traceId)).body).toMatchObject({
      name: 'late',
      timestamp: '2025-07-01T00:00:00.000Z',
    });
  });

  it('stores scores of every data type and lists them on the trace', async () => {
    const traceId = randomUUID();
    await ingest([
      event('trace-create', { id: traceId }),
      event('score-create', { traceId, name: 'n', value: 0.7 }),
      event('score-create', { traceId, name: 'b', value: 1, dataType: 'BOOLEAN' }),
      event('score-create', { traceId, name: 'c', value: 'good' }),
      event('score-create', { traceId, name: 't', value: 'free text', dataType: 'TEXT' }),
      event('sdk-log', { log: { level: 'debug' } }),
    ]);
    const { body } = await getTrace(traceId);
    const byName = Object.fromEntries(body.scores.map((s: { name: string }) => [s.name, s]));
    expect(byName['n']).toMatchObject({ dataType: 'NUMERIC', value: 0.7 });
    expect(byName['n'].stringValue).toBeUndefined();
    expect(byName['b']).toMatchObject({ dataType: 'BOOLEAN', value: 1, stringValue: 'True' });
    expect(byName['c']).toMatchObject({ dataType: 'CATEGORICAL', value: 0, stringValue: 'good' });
    expect(byName['t']).toMatchObject({ dataType: 'TEXT', stringValue: 'free text' });
    expect(byName['t'].value).toBeUndefined();
  });

  it('makes a trace readable as soon as the batch is answered, under concurrent batches', async () => {
    const traceIds = Array.from({ length: 20 }, () => randomUUID());
    const results = await Promise.all(
      traceIds.map((id) =>
        ingest([
          event('trace-create', { id, name: 'concurrent' }),
          event('span-create', { id: randomUUID(), traceId: id }),
        ]),
      ),
    );
    expect(results.every((r) => r.status === 207 && r.body.errors.length === 0)).toBe(true);
    const reads = await Promise.all(traceIds.map(getTrace));
    expect(reads.map((r) => r.status)).toEqual(traceIds.map(() => 200));
    expect(reads.every((r) => r.body.observations.length === 1)).toBe(true);
  });

  it('keeps NUL characters out of PostgreSQL instead of failing the batch', async () => {
    const traceId = randomUUID();
    const res = await ingest([
      event('trace-create', { id: traceId, name: 'a\u0000b', input: { k: 'x\u0000y' } }),
    ]);
    expect(res.body.errors).toEqual([]);
    expect((await getTrace(traceId)).body).toMatchObject({ name: 'ab', input: { k: 'xy' } });
  });
});
