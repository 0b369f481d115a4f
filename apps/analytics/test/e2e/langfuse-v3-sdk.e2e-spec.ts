import { randomUUID } from 'node:crypto';
import type { Langfuse as LangfuseClient } from 'langfuse';
import { AnalyticsTestApp, type TestProject } from '../support/analytics-test-app.js';
import { loadLangfuseV3 } from '../support/langfuse-v3.js';

const { Langfuse } = loadLangfuseV3();

/**
 * docs/analytics.md § Endpoints and the Langfuse definitions they follow ("Tests with the real
 * clients"): the official `langfuse` v3 SDK (3.37.4, the last v3 with `api.metricsDaily`) writes
 * through `POST /api/public/ingestion` and reads back through the contract's three endpoints
 * (docs/api.md § Analytics; Authentication 7: HTTP Basic with the project key pair). No
 * hand-written imitation of the client.
 */
describe('langfuse v3 SDK against the analytics service', () => {
  let ctx: AnalyticsTestApp;
  let project: TestProject;
  let langfuse: LangfuseClient;

  beforeAll(async () => {
    ctx = await AnalyticsTestApp.start();
    project = await ctx.createProject();
    langfuse = new Langfuse({
      publicKey: project.keys.publicKey,
      secretKey: project.keys.secretKey,
      baseUrl: ctx.baseUrl,
      flushAt: 1000,
      flushInterval: 60_000,
    });
  });
  afterAll(async () => {
    await langfuse.shutdownAsync();
    await ctx.close();
  });

  it('returns through fetchTrace what trace(), span(), generation(), event() and score() sent', async () => {
    const userId = `user-${randomUUID()}`;
    const trace = langfuse.trace({
      name: 'checkout',
      userId,
      sessionId: 'session-1',
      tags: ['prod', 'web'],
      metadata: { plan: 'pro', nested: { a: 1 } },
      input: { question: 'what is 2+2?' },
      release: 'r1',
      version: 'v1',
    });
    const span = trace.span({ name: 'retrieve', input: { q: 'docs' } });
    span.end({ output: { hits: 3 } });
    const generation = trace.generation({
      name: 'answer',
      model: 'gpt-4o-mini',
      modelParameters: { temperature: 0.2 },
      input: [{ role: 'user', content: '2+2?' }],
      usage: { input: 1000, output: 200 },
    });
    generation.end({ output: { role: 'assistant', content: '4' } });
    trace.event({ name: 'cache-miss', level: 'WARNING' });
    trace.score({ name: 'correct', value: 1, comment: 'checked' });
    trace.update({ output: { answer: '4' } });
    await langfuse.flushAsync();

    const { data } = await langfuse.fetchTrace(trace.id);
    expect(data).toMatchObject({
      id: trace.id,
      name: 'checkout',
      userId,
      sessionId: 'session-1',
      tags: ['prod', 'web'],
      metadata: { plan: 'pro', nested: { a: 1 } },
      input: { question: 'what is 2+2?' },
      output: { answer: '4' },
      release: 'r1',
      version: 'v1',
      public: false,
      environment: 'default',
      htmlPath: `/project/${project.projectId}/traces/${trace.id}`,
    });
    expect(data.observations.map((o) => [o.name, o.type]).sort()).toEqual([
      ['answer', 'GENERATION'],
      ['cache-miss', 'EVENT'],
      ['retrieve', 'SPAN'],
    ]);
    const gen = data.observations.find((o) => o.name === 'answer')!;
    expect(gen).toMatchObject({
      model: 'gpt-4o-mini',
      modelParameters: { temperature: 0.2 },
      output: { role: 'assistant', content: '4' },
      usageDetails: { input: 1000, output: 200, total: 1200 },
      usage: { input: 1000, output: 200, total: 1200 },
    });
    // gpt-4o-mini from the seeded price table: $0.15 / $0.60 per million tokens.
    expect(gen.calculatedTotalCost).toBeCloseTo(1000 * 0.15e-6 + 200 * 0.6e-6, 12);
    expect(gen.endTime).not.toBeNull();
    expect(data.observations.find((o) => o.name === 'retrieve')!.output).toEqual({ hits: 3 });
    expect(data.observations.find((o) => o.name === 'cache-miss')!.level).toBe('WARNING');
    expect(data.scores).toEqual([
      expect.objectContaining({
        name: 'correct',
        value: 1,
        dataType: 'NUMERIC',
        comment: 'checked',
        traceId: trace.id,
        source: 'API',
      }),
    ]);
    expect(data.totalCost).toBeCloseTo(gen.calculatedTotalCost!, 12);
    expect(data.latency).toBeGreaterThanOrEqual(0);
  });

  it('lists the trace with fetchTraces filtered by user, with observation and score ids', async () => {
    const userId = `user-${randomUUID()}`;
    const trace = langfuse.trace({ name: 'list-me', userId, tags: ['a'] });
    trace.generation({ name: 'g', model: 'unknown-model', usage: { input: 5, output: 7 } }).end();
    trace.score({ name: 'quality', value: 0.5 });
    await langfuse.flushAsync();

    const res = await langfuse.fetchTraces({ userId });
    expect(res.meta).toEqual({ page: 1, limit: 50, totalItems: 1, totalPages: 1 });
    expect(res.data).toHaveLength(1);
    expect(res.data[0]).toMatchObject({ id: trace.id, name: 'list-me', userId, tags: ['a'] });
    expect(res.data[0].observations).toHaveLength(1);
    expect(res.data[0].scores).toHaveLength(1);
    expect(res.data[0].totalCost).toBe(0); // no price for unknown-model, none sent
  });

  it('reports the day through api.metricsDaily with per-model usage', async () => {
    const userId = `metrics-${randomUUID()}`;
    const t1 = langfuse.trace({ name: 'daily', userId });
    t1.generation({ name: 'g1', model: 'gpt-4o', usage: { input: 100, output: 10 } }).end();
    t1.generation({ name: 'g2', model: 'gpt-4o', usage: { input: 50, output: 5 } }).end();
    const t2 = langfuse.trace({ name: 'daily', userId });
    t2.generation({
      name: 'g3',
      model: 'claude-3-5-sonnet',
      usage: { input: 10, output: 1 },
    }).end();
    await langfuse.flushAsync();

    const now = Date.now();
    const res = await langfuse.api.metricsDaily({
      userId,
      fromTimestamp: new Date(now - 86_400_000).toISOString(),
      toTimestamp: new Date(now + 86_400_000).toISOString(),
    });
    expect(res.meta).toMatchObject({ page: 1, totalItems: 1, totalPages: 1 });
    expect(res.data).toHaveLength(1);
    const day = res.data[0];
    expect(Object.keys(day).sort()).toEqual(
      ['countObservations', 'countTraces', 'date', 'totalCost', 'usage'].sort(),
    );
    expect(day.date).toBe(new Date().toISOString().slice(0, 10));
    expect(day.countTraces).toBe(2);
    expect(day.countObservations).toBe(3);
    const gpt = day.usage.find((u) => u.model === 'gpt-4o')!;
    expect(gpt).toEqual({
      model: 'gpt-4o',
      inputUsage: 150,
      outputUsage: 15,
      totalUsage: 165,
      countTraces: 1,
      countObservations: 2,
      totalCost: expect.closeTo(150 * 2.5e-6 + 15 * 1e-5, 12),
    });
    expect(day.usage.find((u) => u.model === 'claude-3-5-sonnet')).toMatchObject({
      countTraces: 1,
      countObservations: 1,
      inputUsage: 10,
      outputUsage: 1,
    });
    expect(day.totalCost).toBeCloseTo(gpt.totalCost + 10 * 3e-6 + 1 * 15e-6, 12);
  });

  it("refuses a wrong secret with 401 in Langfuse's error shape, which the SDK reports", async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const wrong = new Langfuse({
      publicKey: project.keys.publicKey,
      secretKey: 'sk-lf-wrong',
      baseUrl: ctx.baseUrl,
    });
    try {
      const res = await wrong.fetchTraces();
      expect(res.data).toBeUndefined(); // the v3 SDK logs fetch errors instead of throwing
      const message = logged.mock.calls.map((c) => c.map(String).join(' ')).join('\n');
      expect(message).toContain('401');
      expect(message).toContain('{"message":"Invalid credentials","error":"UnauthorizedError"');
    } finally {
      logged.mockRestore();
      await wrong.shutdownAsync();
    }
  });
});
