import { randomUUID } from 'node:crypto';
import { LangfuseClient } from '@langfuse/client';
import { NotFoundError, UnauthorizedError } from '@langfuse/core';
import { AnalyticsTestApp, event, type TestProject } from '../support/analytics-test-app.js';

/**
 * The analytics feature with the official `@langfuse/client` (5.11.1: the issue names v4; v5 is the
 * current major, runs on Node 20 and has the same `api.ingestion.batch`, `api.trace.list`,
 * `api.trace.get` and typed errors). docs/api.md § Analytics: `GET /api/public/traces` (filters,
 * paging, ordering, tags, time bounds) and `GET /api/public/traces/{traceId}`.
 */
describe('@langfuse/client against the analytics service', () => {
  let ctx: AnalyticsTestApp;
  let project: TestProject;
  let other: TestProject;
  let client: LangfuseClient;
  let otherClient: LangfuseClient;
  const base = Date.parse('2025-03-10T12:00:00.000Z');
  const at = (minutes: number) => new Date(base + minutes * 60_000).toISOString();
  const run = randomUUID().slice(0, 8);

  beforeAll(async () => {
    ctx = await AnalyticsTestApp.start();
    [project, other] = [await ctx.createProject(), await ctx.createProject()];
    client = new LangfuseClient({ ...project.keys, baseUrl: ctx.baseUrl });
    otherClient = new LangfuseClient({ ...other.keys, baseUrl: ctx.baseUrl });

    // Five traces of this project, one minute apart, with users, names, sessions and tags.
    const traces = [
      { id: `${run}-1`, name: 'alpha', userId: 'u1', sessionId: 's1', tags: ['a', 'b'], t: 0 },
      { id: `${run}-2`, name: 'beta', userId: 'u1', sessionId: 's2', tags: ['a'], t: 1 },
      { id: `${run}-3`, name: 'alpha', userId: 'u2', sessionId: 's1', tags: ['b', 'c'], t: 2 },
      { id: `${run}-4`, name: 'gamma', userId: 'u2', tags: ['a', 'b', 'c'], t: 3 },
      { id: `${run}-5`, name: 'alpha', userId: 'u3', tags: [], t: 4 },
    ];
    const res = await client.api.ingestion.batch({
      batch: traces.map((t) => ({
        id: randomUUID(),
        timestamp: at(t.t),
        type: 'trace-create' as const,
        body: {
          id: t.id,
          timestamp: at(t.t),
          name: t.name,
          userId: t.userId,
          sessionId: t.sessionId,
          tags: t.tags,
        },
      })),
    });
    expect(res.errors).toEqual([]);
    expect(res.successes).toHaveLength(5);
    const otherRes = await otherClient.api.ingestion.batch({
      batch: [
        {
          id: randomUUID(),
          timestamp: at(0),
          type: 'trace-create',
          body: { id: `${run}-other`, timestamp: at(0), name: 'alpha', userId: 'u1', tags: ['a'] },
        },
      ],
    });
    expect(otherRes.errors).toEqual([]);
  });
  afterAll(() => ctx.close());

  const ids = (data: { id: string }[]) => data.map((t) => t.id.replace(`${run}-`, ''));

  it('answers ingestion.batch with 201 per event and errors: []', async () => {
    const traceId = randomUUID();
    const eventIds = [randomUUID(), randomUUID()];
    const res = await client.api.ingestion.batch({
      batch: [
        {
          id: eventIds[0],
          timestamp: new Date().toISOString(),
          type: 'trace-create',
          body: { id: traceId, name: 'batch' },
        },
        {
          id: eventIds[1],
          timestamp: new Date().toISOString(),
          type: 'span-create',
          body: { id: randomUUID(), traceId, name: 'step', startTime: new Date().toISOString() },
        },
      ],
    });
    expect(res).toEqual({
      successes: [
        { id: eventIds[0], status: 201 },
        { id: eventIds[1], status: 201 },
      ],
      errors: [],
    });
    const trace = await client.api.trace.get(traceId);
    expect(trace.name).toBe('batch');
    expect(trace.observations.map((o) => o.name)).toEqual(['step']);
  });

  it('lists newest first by default with Langfuse page metadata', async () => {
    const res = await client.api.trace.list({ fromTimestamp: at(0), toTimestamp: at(10) });
    expect(ids(res.data)).toEqual(['5', '4', '3', '2', '1']);
    expect(res.meta).toEqual({ page: 1, limit: 50, totalItems: 5, totalPages: 1 });
    expect(res.data[0]).toMatchObject({
      htmlPath: `/project/${project.projectId}/traces/${run}-5`,
      latency: 0,
      totalCost: 0,
      observations: [],
      scores: [],
    });
  });

  it('pages with page and limit', async () => {
    const page1 = await client.api.trace.list({
      fromTimestamp: at(0),
      toTimestamp: at(10),
      limit: 2,
      page: 1,
    });
    const page3 = await client.api.trace.list({
      fromTimestamp: at(0),
      toTimestamp: at(10),
      limit: 2,
      page: 3,
    });
    expect(ids(page1.data)).toEqual(['5', '4']);
    expect(ids(page3.data)).toEqual(['1']);
    expect(page3.meta).toEqual({ page: 3, limit: 2, totalItems: 5, totalPages: 3 });
  });

  it('orders by orderBy=field.asc|desc', async () => {
    const asc = await client.api.trace.list({
      fromTimestamp: at(0),
      toTimestamp: at(10),
      orderBy: 'timestamp.asc',
    });
    expect(ids(asc.data)).toEqual(['1', '2', '3', '4', '5']);
    const byUser = await client.api.trace.list({
      fromTimestamp: at(0),
      toTimestamp: at(10),
      orderBy: 'userId.desc',
    });
    expect(byUser.data.map((t) => t.userId)).toEqual(['u3', 'u2', 'u2', 'u1', 'u1']);
    const byName = await client.api.trace.list({
      fromTimestamp: at(0),
      toTimestamp: at(10),
      orderBy: 'name.asc',
    });
    expect(byName.data.map((t) => t.name)).toEqual(['alpha', 'alpha', 'alpha', 'beta', 'gamma']);
  });

  it('filters by userId, name and sessionId', async () => {
    const window = { fromTimestamp: at(0), toTimestamp: at(10) };
    expect(ids((await client.api.trace.list({ ...window, userId: 'u2' })).data)).toEqual([
      '4',
      '3',
    ]);
    expect(ids((await client.api.trace.list({ ...window, name: 'alpha' })).data)).toEqual([
      '5',
      '3',
      '1',
    ]);
    expect(ids((await client.api.trace.list({ ...window, sessionId: 's1' })).data)).toEqual([
      '3',
      '1',
    ]);
    expect(
      ids((await client.api.trace.list({ ...window, name: 'alpha', userId: 'u1' })).data),
    ).toEqual(['1']);
  });

  it('returns traces carrying all requested tags, repeated or comma-separated', async () => {
    const window = { fromTimestamp: at(0), toTimestamp: at(10) };
    expect(ids((await client.api.trace.list({ ...window, tags: 'a' })).data)).toEqual([
      '4',
      '2',
      '1',
    ]);
    expect(ids((await client.api.trace.list({ ...window, tags: ['a', 'b'] })).data)).toEqual([
      '4',
      '1',
    ]);
    expect(ids((await client.api.trace.list({ ...window, tags: ['a', 'b', 'c'] })).data)).toEqual([
      '4',
    ]);
    expect(ids((await client.api.trace.list({ ...window, tags: 'b,c' })).data)).toEqual(['4', '3']);
    expect((await client.api.trace.list({ ...window, tags: 'nope' })).data).toEqual([]);
  });

  it('treats fromTimestamp as inclusive and toTimestamp as exclusive', async () => {
    const res = await client.api.trace.list({ fromTimestamp: at(1), toTimestamp: at(3) });
    expect(ids(res.data)).toEqual(['3', '2']);
    const none = await client.api.trace.list({ fromTimestamp: at(3), toTimestamp: at(3) });
    expect(none.data).toEqual([]);
  });

  it('never shows another project its traces (list and get)', async () => {
    const mine = await client.api.trace.list({
      fromTimestamp: at(0),
      toTimestamp: at(10),
      name: 'alpha',
      userId: 'u1',
    });
    expect(ids(mine.data)).toEqual(['1']);
    const theirs = await otherClient.api.trace.list({ fromTimestamp: at(0), toTimestamp: at(10) });
    expect(ids(theirs.data)).toEqual(['other']);
    await expect(otherClient.api.trace.get(`${run}-1`)).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.api.trace.get(`${run}-other`)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("raises the typed NotFoundError with Langfuse's 404 body for an unknown trace", async () => {
    const error = await client.api.trace.get('does-not-exist').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).statusCode).toBe(404);
    expect((error as NotFoundError).body).toEqual({
      message: 'Trace does-not-exist not found within authorized project',
      error: 'LangfuseNotFoundError',
      code: 'resource_not_found',
    });
  });

  it('raises the typed UnauthorizedError for a wrong secret or an unknown key, on reads and ingestion', async () => {
    const wrongSecret = new LangfuseClient({
      publicKey: project.keys.publicKey,
      secretKey: 'sk-lf-nope',
      baseUrl: ctx.baseUrl,
    });
    const unknown = new LangfuseClient({
      publicKey: 'pk-lf-unknown',
      secretKey: 'sk-lf-unknown',
      baseUrl: ctx.baseUrl,
    });
    for (const c of [wrongSecret, unknown]) {
      const error = await c.api.trace.list().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnauthorizedError);
      expect((error as UnauthorizedError).body).toEqual({
        message: 'Invalid credentials',
        error: 'UnauthorizedError',
        code: 'authentication_failed',
      });
    }
    const batch = await wrongSecret.api.ingestion
      .batch({ batch: [event('trace-create', { id: randomUUID() }) as never] })
      .catch((e: unknown) => e);
    expect(batch).toBeInstanceOf(UnauthorizedError);
  });

  it('returns TraceWithDetails with exactly the fields of the Langfuse definition', async () => {
    const res = await client.api.trace.list({ fromTimestamp: at(0), toTimestamp: at(1) });
    expect(Object.keys(res.data[0]).sort()).toEqual(
      [
        'id',
        'timestamp',
        'name',
        'input',
        'output',
        'sessionId',
        'release',
        'version',
        'userId',
        'metadata',
        'tags',
        'public',
        'environment',
        'htmlPath',
        'latency',
        'totalCost',
        'observations',
        'scores',
      ].sort(),
    );
  });
});
