import { randomUUID } from 'node:crypto';
import { AnalyticsTestApp, event, type TestProject } from '../support/analytics-test-app.js';

/**
 * docs/api.md § Analytics: `GET /api/public/metrics/daily` with `fromTimestamp` and `toTimestamp`
 * required, shaped exactly as Langfuse's metrics.yml DailyMetrics. The answer for whole days comes
 * from the rollup maintained on ingest; partial days at the edges from the base tables. These
 * tests check it against what was ingested, including after updates that move data between
 * rollup keys.
 */
describe('GET /api/public/metrics/daily', () => {
  let ctx: AnalyticsTestApp;
  let project: TestProject;
  let other: TestProject;

  const day = (d: number, h = 12, m = 0) => new Date(Date.UTC(2025, 0, d, h, m)).toISOString();

  beforeAll(async () => {
    ctx = await AnalyticsTestApp.start();
    [project, other] = [await ctx.createProject(), await ctx.createProject()];
  });
  afterAll(() => ctx.close());

  const ingest = async (p: TestProject, batch: unknown[]) => {
    const res = await ctx.request('POST', '/api/public/ingestion', {
      auth: p.basic,
      body: { batch },
    });
    expect(res.body.errors).toEqual([]);
  };
  const daily = (p: TestProject, query: Record<string, string | string[]>) => {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) for (const x of [v].flat()) qs.append(k, x);
    return ctx.request('GET', `/api/public/metrics/daily?${qs.toString()}`, { auth: p.basic });
  };
  const generation = (
    traceId: string,
    startTime: string,
    model: string,
    input: number,
    output: number,
  ) =>
    event('generation-create', {
      id: randomUUID(),
      traceId,
      startTime,
      model,
      usage: { input, output },
    });

  it('answers 400 without fromTimestamp or toTimestamp, or with bad ones', async () => {
    const queries: Record<string, string>[] = [
      {},
      { fromTimestamp: day(1) },
      { toTimestamp: day(2) },
      { fromTimestamp: 'yesterday', toTimestamp: day(2) },
      { fromTimestamp: day(2), toTimestamp: day(1) },
      { fromTimestamp: day(1), toTimestamp: day(2), limit: '101' },
    ];
    for (const query of queries) {
      const res = await daily(project, query);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: 'Invalid request data', code: 'invalid_query' });
    }
  });

  describe('with a month of data', () => {
    const t = {
      a: randomUUID(), // Jan 3, user u1, tags [x], 2 generations gpt-4o + 1 span
      b: randomUUID(), // Jan 3 23:30, user u2, tags [x, y], generation claude started Jan 4 00:10
      c: randomUUID(), // Jan 5, user u1, no tags, generation gpt-4o
    };
    beforeAll(async () => {
      await ingest(project, [
        event('trace-create', {
          id: t.a,
          timestamp: day(3, 10),
          name: 'chat',
          userId: 'u1',
          tags: ['x'],
        }),
        generation(t.a, day(3, 10, 1), 'gpt-4o', 100, 10),
        generation(t.a, day(3, 10, 2), 'gpt-4o', 200, 20),
        event('span-create', { id: randomUUID(), traceId: t.a, startTime: day(3, 10, 3) }),
        event('trace-create', {
          id: t.b,
          timestamp: day(3, 23, 30),
          name: 'chat',
          userId: 'u2',
          tags: ['x', 'y'],
        }),
        generation(t.b, day(4, 0, 10), 'claude-3-5-sonnet', 1000, 100),
        event('trace-create', { id: t.c, timestamp: day(5, 9), name: 'search', userId: 'u1' }),
        generation(t.c, day(5, 9, 1), 'gpt-4o', 10, 1),
      ]);
      // another project's data on the same days must never show up
      await ingest(other, [
        event('trace-create', {
          id: randomUUID(),
          timestamp: day(3, 10),
          name: 'chat',
          userId: 'u1',
        }),
      ]);
    });

    const gpt4o = (i: number, o: number) => i * 2.5e-6 + o * 1e-5;

    it("returns one entry per UTC day with data, newest first, with exactly Langfuse's keys", async () => {
      const res = await daily(project, { fromTimestamp: day(1, 0), toTimestamp: day(31, 0) });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['data', 'meta']);
      expect(res.body.meta).toEqual({ page: 1, limit: 50, totalItems: 3, totalPages: 1 });
      expect(res.body.data.map((d: { date: string }) => d.date)).toEqual([
        '2025-01-05',
        '2025-01-04',
        '2025-01-03',
      ]);
      const [jan5, jan4, jan3] = res.body.data;
      for (const d of res.body.data) {
        expect(Object.keys(d).sort()).toEqual([
          'countObservations',
          'countTraces',
          'date',
          'totalCost',
          'usage',
        ]);
        for (const u of d.usage) {
          expect(Object.keys(u).sort()).toEqual([
            'countObservations',
            'countTraces',
            'inputUsage',
            'model',
            'outputUsage',
            'totalCost',
            'totalUsage',
          ]);
        }
      }
      expect(jan3).toMatchObject({ countTraces: 2, countObservations: 3 });
      expect(jan3.usage).toEqual([
        {
          model: 'gpt-4o',
          inputUsage: 300,
          outputUsage: 30,
          totalUsage: 330,
          countTraces: 1,
          countObservations: 2,
          totalCost: expect.closeTo(gpt4o(300, 30), 12),
        },
        {
          model: null,
          inputUsage: 0,
          outputUsage: 0,
          totalUsage: 0,
          countTraces: 1,
          countObservations: 1,
          totalCost: 0,
        },
      ]);
      expect(jan3.totalCost).toBeCloseTo(gpt4o(300, 30), 12);
      // trace b counts on Jan 3 (its timestamp), its generation on Jan 4 (its start)
      expect(jan4).toMatchObject({ countTraces: 0, countObservations: 1 });
      expect(jan4.usage[0]).toMatchObject({
        model: 'claude-3-5-sonnet',
        inputUsage: 1000,
        countTraces: 1,
      });
      expect(jan5).toMatchObject({ countTraces: 1, countObservations: 1 });
    });

    it("filters by userId, traceName and tags (all required) through the observation's trace", async () => {
      const window = { fromTimestamp: day(1, 0), toTimestamp: day(31, 0) };
      const u1 = (await daily(project, { ...window, userId: 'u1' })).body.data;
      expect(u1.map((d: { date: string }) => d.date)).toEqual(['2025-01-05', '2025-01-03']);
      expect(u1[1]).toMatchObject({ countTraces: 1, countObservations: 3 });
      const chat = (await daily(project, { ...window, traceName: 'chat' })).body.data;
      expect(chat.map((d: { date: string }) => d.date)).toEqual(['2025-01-04', '2025-01-03']);
      const xy = (await daily(project, { ...window, tags: ['x', 'y'] })).body.data;
      expect(xy.map((d: { date: string; countTraces: number }) => [d.date, d.countTraces])).toEqual(
        [
          ['2025-01-04', 0],
          ['2025-01-03', 1],
        ],
      );
      const xComma = (await daily(project, { ...window, tags: 'x,y' })).body.data;
      expect(xComma).toEqual(xy);
      const x = (await daily(project, { ...window, tags: 'x' })).body.data;
      expect(x.find((d: { date: string }) => d.date === '2025-01-03').countTraces).toBe(2);
    });

    it('is exact for bounds inside a day: fromTimestamp inclusive, toTimestamp exclusive', async () => {
      // [Jan 3 10:02, Jan 4 00:10): the second gpt-4o call and the span, trace b, not b's claude call
      const res = await daily(project, {
        fromTimestamp: day(3, 10, 2),
        toTimestamp: day(4, 0, 10),
      });
      expect(res.body.data.map((d: { date: string }) => d.date)).toEqual(['2025-01-03']);
      const [jan3] = res.body.data;
      expect(jan3).toMatchObject({ countTraces: 1, countObservations: 2 });
      expect(jan3.usage.find((u: { model: string }) => u.model === 'gpt-4o')).toMatchObject({
        inputUsage: 200,
        countObservations: 1,
      });
      // whole days plus a partial edge: [Jan 4 00:00, Jan 5 09:00) → Jan 4 only
      const mixed = await daily(project, { fromTimestamp: day(4, 0), toTimestamp: day(5, 9) });
      expect(mixed.body.data.map((d: { date: string }) => d.date)).toEqual(['2025-01-04']);
    });

    it('pages by day', async () => {
      const res = await daily(project, {
        fromTimestamp: day(1, 0),
        toTimestamp: day(31, 0),
        limit: '2',
        page: '2',
      });
      expect(res.body.meta).toEqual({ page: 2, limit: 2, totalItems: 3, totalPages: 2 });
      expect(res.body.data.map((d: { date: string }) => d.date)).toEqual(['2025-01-03']);
    });

    it('counts traces.meta.totalItems exactly, whole days from the rollup and edges from the table', async () => {
      const cases: [Record<string, string>, number][] = [
        [{}, 3],
        [{ userId: 'u1' }, 2],
        [{ tags: 'x' }, 2],
        [{ fromTimestamp: day(3, 11), toTimestamp: day(5, 9) }, 1], // only b (Jan 3 23:30)
        [{ fromTimestamp: day(2, 0), toTimestamp: day(6, 0) }, 3], // whole days only
        [{ fromTimestamp: day(3, 10), toTimestamp: day(5, 9, 1), name: 'chat' }, 2],
        [{ sessionId: 'none' }, 0], // not rollup-keyed: counted in the table
      ];
      for (const [query, expected] of cases) {
        const qs = new URLSearchParams({ limit: '100', ...query }).toString();
        const res = await ctx.request('GET', `/api/public/traces?${qs}`, { auth: project.basic });
        expect(res.status).toBe(200);
        expect([query, res.body.meta.totalItems]).toEqual([query, expected]);
        expect(res.body.data).toHaveLength(expected);
      }
    });

    it('shows another project only its own days', async () => {
      const res = await daily(other, { fromTimestamp: day(1, 0), toTimestamp: day(31, 0) });
      expect(res.body.data).toEqual([
        { date: '2025-01-03', countTraces: 1, countObservations: 0, totalCost: 0, usage: [] },
      ]);
    });
  });

  it("keeps the rollup right when later events change a trace's user, a model or a start day", async () => {
    const traceId = randomUUID();
    const genId = randomUUID();
    const p = await ctx.createProject();
    await ingest(p, [
      event('trace-create', {
        id: traceId,
        timestamp: day(10, 8),
        name: 'moving',
        userId: 'before',
      }),
      event('generation-create', {
        id: genId,
        traceId,
        startTime: day(10, 8),
        model: 'gpt-4o',
        usage: { input: 10, output: 1 },
      }),
    ]);
    await ingest(p, [
      event('trace-create', { id: traceId, userId: 'after' }),
      event('generation-update', {
        id: genId,
        traceId,
        model: 'gpt-4o-mini',
        usage: { input: 20, output: 2 },
      }),
    ]);
    const window = { fromTimestamp: day(9, 0), toTimestamp: day(12, 0) };
    expect((await daily(p, { ...window, userId: 'before' })).body.data).toEqual([]);
    const after = (await daily(p, { ...window, userId: 'after' })).body.data;
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ date: '2025-01-10', countTraces: 1, countObservations: 1 });
    expect(after[0].usage).toEqual([
      {
        model: 'gpt-4o-mini',
        inputUsage: 20,
        outputUsage: 2,
        totalUsage: 22,
        countTraces: 1,
        countObservations: 1,
        totalCost: expect.closeTo(20 * 0.15e-6 + 2 * 0.6e-6, 12),
      },
    ]);
    const rows: { n: number }[] = await ctx.dataSource.query(
      `SELECT count(*)::int AS n FROM daily_usage_rollup
       WHERE project_id = $1 AND (count_observations <> 0 OR total_cost <> 0) AND model = 'gpt-4o'`,
      [p.projectId],
    );
    expect(rows[0].n).toBe(0); // the old model's contribution went back to zero exactly
  });
});
