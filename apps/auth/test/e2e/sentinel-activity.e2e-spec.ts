import { randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startAuthTestApp, type AuthTestContext } from '../support/auth-test-app.js';
import { registerActive } from '../support/flows.js';
import { EventPublisher, parseCsv, setMembership, upsertPass } from '../support/sentinel.js';

interface Seed {
  at: string;
  type?: 'api_request' | 'token_generation' | 'error';
  endpoint?: string;
  method?: string;
  status?: number;
  latency?: number;
  error?: string | null;
}

/**
 * docs/api.md § Sentinel Passes (activity endpoints on {auth_url}) and
 * docs/api.md § Activity log entry and usage metric: paged and filtered logs, streamed exports in
 * three formats, metrics buckets. Rows are seeded with SQL; recording itself is proven in
 * sentinel-exchange.e2e-spec.ts.
 */
describe('auth: Sentinel Pass activity logs, export and metrics', () => {
  let ctx: AuthTestContext;
  let events: EventPublisher;
  let token: string;

  beforeAll(async () => {
    ctx = await startAuthTestApp({ AUTH_EMAIL_ACTIVATION_REQUIRED: 'false' });
    events = await EventPublisher.connect(ctx);
    const member = await registerActive(ctx);
    token = member.accessToken;
    await setMembership(ctx, events, {
      userId: member.userId,
      organizationId: 1,
      projectId: 10,
      role: 'MEMBER',
    });
  });
  afterAll(async () => {
    await events.close();
    await ctx.close();
  });

  async function passWith(rows: Seed[]): Promise<string> {
    const { passId } = await upsertPass(ctx, events, {});
    for (const r of rows) {
      const type = r.type ?? 'api_request';
      await ctx.db.query(
        `INSERT INTO agent_activity (id, agent_user_id, activity_type, service, endpoint, method,
           status_code, latency_ms, success, client_address, error_message, occurred_at)
         VALUES ($1, $2, $3, 'org', $4, $5, $6, $7, $8, '10.0.0.1', $9, $10)`,
        [
          randomUUID(),
          passId,
          type,
          r.endpoint ?? '/v1/api/a',
          r.method ?? 'GET',
          r.status ?? (type === 'error' ? 500 : 200),
          r.latency ?? 10,
          type !== 'error',
          r.error ?? null,
          r.at,
        ],
      );
    }
    return passId;
  }

  const get = (path: string) => ctx.get(`/v1/api/oauth/agent/activity/${path}`, ctx.bearer(token));

  describe('logs', () => {
    let passId: string;
    beforeAll(async () => {
      passId = await passWith([
        { at: '2026-03-01T10:00:00Z', endpoint: '/v1/api/a', latency: 5 },
        { at: '2026-03-01T10:05:00Z', endpoint: '/v1/api/b', latency: 50 },
        { at: '2026-03-01T10:10:00Z', type: 'error', endpoint: '/v1/api/a', latency: 20 },
        {
          at: '2026-03-01T10:15:00Z',
          type: 'token_generation',
          endpoint: '/v1/api/oauth/token',
          method: 'POST',
          latency: 1,
        },
        {
          at: '2026-03-01T11:00:00Z',
          endpoint: '/v1/api/a',
          method: 'POST',
          status: 201,
          latency: 30,
        },
      ]);
    });
    const logs = async (query: string) => {
      const res = await get(`logs?agent_user_id=${passId}${query}`);
      expect(res.statusCode).toBe(200);
      return res.json<{
        data: { timestamp: string; latency_ms: number; activity_type: string; endpoint: string }[];
        meta: Record<string, number>;
      }>();
    };

    it('lists entries newest first with page meta, 25 per page by default, and every documented field', async () => {
      const body = await logs('');
      expect(body.meta).toEqual({ page: 1, per_page: 25, total_count: 5, total_pages: 1 });
      expect(body.data.map((e) => e.timestamp)).toEqual([
        '2026-03-01T11:00:00.000Z',
        '2026-03-01T10:15:00.000Z',
        '2026-03-01T10:10:00.000Z',
        '2026-03-01T10:05:00.000Z',
        '2026-03-01T10:00:00.000Z',
      ]);
      expect(Object.keys(body.data[0]).sort()).toEqual(
        [
          'id',
          'agent_user_id',
          'timestamp',
          'activity_type',
          'service',
          'endpoint',
          'method',
          'status_code',
          'latency_ms',
          'success',
          'client_address',
          'error_message',
        ].sort(),
      );
    });

    it('pages with page and per_page', async () => {
      const page3 = await logs('&per_page=2&page=3');
      expect(page3.meta).toEqual({ page: 3, per_page: 2, total_count: 5, total_pages: 3 });
      expect(page3.data.map((e) => e.timestamp)).toEqual(['2026-03-01T10:00:00.000Z']);
      expect((await logs('&per_page=2&page=4')).data).toEqual([]);
    });

    it('filters by activity type, endpoint, success and date range', async () => {
      expect((await logs('&activity_type=error')).data.map((e) => e.activity_type)).toEqual([
        'error',
      ]);
      const a = await logs(`&endpoint=${encodeURIComponent('/v1/api/a')}`);
      expect(a.meta['total_count']).toBe(3);
      expect((await logs('&success=false')).meta['total_count']).toBe(1);
      expect((await logs('&success=true')).meta['total_count']).toBe(4);
      const range = await logs('&start_date=2026-03-01T10:05:00Z&end_date=2026-03-01T10:15:00Z');
      expect(range.data.map((e) => e.timestamp)).toEqual([
        '2026-03-01T10:15:00.000Z',
        '2026-03-01T10:10:00.000Z',
        '2026-03-01T10:05:00.000Z',
      ]);
      const combined = await logs(
        '&endpoint=/v1/api/a&success=true&start_date=2026-03-01T10:30:00Z',
      );
      expect(combined.meta['total_count']).toBe(1);
    });

    it('takes created_at and createdAt as aliases of timestamp for sort_by', async () => {
      for (const alias of ['created_at', 'createdAt']) {
        const asc = await logs(`&sort_by=${alias}&sort_order=asc`);
        const times = asc.data.map((e) => e.timestamp);
        expect(times).toEqual([...times].sort());
        expect(new Set(times).size).toBe(times.length);
        const desc = await logs(`&sort_by=${alias}`);
        expect(desc.data.map((e) => e.timestamp)).toEqual([...times].reverse());
      }
    });

    it('sorts by latency_ms and endpoint in either order', async () => {
      const asc = await logs('&sort_by=latency_ms&sort_order=asc');
      expect(asc.data.map((e) => e.latency_ms)).toEqual([1, 5, 20, 30, 50]);
      const desc = await logs('&sort_by=latency_ms');
      expect(desc.data.map((e) => e.latency_ms)).toEqual([50, 30, 20, 5, 1]);
      const byEndpoint = await logs('&sort_by=endpoint&sort_order=asc');
      expect(byEndpoint.data.map((e) => e.endpoint)).toEqual([
        '/v1/api/a',
        '/v1/api/a',
        '/v1/api/a',
        '/v1/api/b',
        '/v1/api/oauth/token',
      ]);
    });

    it.each([
      ['no agent_user_id', 'logs?page=1', 'agent_user_id'],
      ['agent_user_id not a UUID', 'logs?agent_user_id=abc', 'agent_user_id'],
      ['per_page above 100', 'logs?agent_user_id=$&per_page=101', 'per_page'],
      ['per_page 0', 'logs?agent_user_id=$&per_page=0', 'per_page'],
      ['page 0', 'logs?agent_user_id=$&page=0', 'page'],
      ['page not a number', 'logs?agent_user_id=$&page=two', 'page'],
      ['unknown sort_by', 'logs?agent_user_id=$&sort_by=client_address', 'sort_by'],
      ['unknown sort_order', 'logs?agent_user_id=$&sort_order=up', 'sort_order'],
      ['unknown activity_type', 'logs?agent_user_id=$&activity_type=login', 'activity_type'],
      ['success not a boolean', 'logs?agent_user_id=$&success=maybe', 'success'],
      ['start_date not ISO 8601', 'logs?agent_user_id=$&start_date=yesterday', 'start_date'],
      [
        'start_date after end_date',
        'logs?agent_user_id=$&start_date=2026-03-02T00:00:00Z&end_date=2026-03-01T00:00:00Z',
        'start_date',
      ],
      ['unknown export format', 'export?agent_user_id=$&format=xml', 'format'],
      ['unknown group_by', 'metrics?agent_user_id=$&group_by=month', 'group_by'],
      [
        'more than 2000 hour buckets',
        'metrics?agent_user_id=$&group_by=hour&start_date=2020-01-01T00:00:00Z&end_date=2026-01-01T00:00:00Z',
        'group_by',
      ],
    ])('rejects %s with 400 VALIDATION_FAILED naming the parameter', async (_, path, parameter) => {
      const res = await get(path.replace('$', passId));
      expect(res.statusCode).toBe(400);
      const errors = res.json<{ errors: { code: string; source?: { parameter?: string } }[] }>()
        .errors;
      expect(errors[0].code).toBe('VALIDATION_FAILED');
      expect(errors.map((e) => e.source?.parameter)).toContain(parameter);
    });
  });

  describe('export', () => {
    let passId: string;
    const tricky = '/v1/api/"quoted",comma';
    const message = 'line one\r\nline two, with "quotes"';
    beforeAll(async () => {
      passId = await passWith([
        { at: '2026-04-01T10:00:00Z', endpoint: '/v1/api/a', latency: 5 },
        { at: '2026-04-01T10:01:00Z', type: 'error', endpoint: tricky, error: message },
        { at: '2026-04-01T10:02:00Z', type: 'token_generation', endpoint: '/v1/api/oauth/token' },
      ]);
    });

    it('exports json as one array of entries, as an attachment, newest first', async () => {
      const res = await get(`export?agent_user_id=${passId}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="agent-activity-${passId}.json"`,
      );
      const entries = JSON.parse(res.body) as { timestamp: string; endpoint: string }[];
      expect(entries.map((e) => e.timestamp)).toEqual([
        '2026-04-01T10:02:00.000Z',
        '2026-04-01T10:01:00.000Z',
        '2026-04-01T10:00:00.000Z',
      ]);
      expect(entries[1].endpoint).toBe(tricky);
    });

    it('exports an empty json array when nothing matches', async () => {
      const res = await get(`export?agent_user_id=${passId}&activity_type=error&success=true`);
      expect(JSON.parse(res.body)).toEqual([]);
    });

    it('exports jsonl as one entry per line, honouring filters and sort_order', async () => {
      const res = await get(
        `export?agent_user_id=${passId}&format=jsonl&sort_order=asc&activity_type=api_request`,
      );
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
      expect(res.headers['content-disposition']).toContain('.jsonl"');
      const lines = res.body.split('\n').filter((l) => l !== '');
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0])).toMatchObject({ activity_type: 'api_request', latency_ms: 5 });
    });

    it('exports csv with a header row and RFC 4180 quoting that round-trips commas, quotes and line breaks', async () => {
      const res = await get(`export?agent_user_id=${passId}&format=csv&sort_order=asc`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      const rows = parseCsv(res.body);
      expect(rows[0]).toEqual([
        'id',
        'agent_user_id',
        'timestamp',
        'activity_type',
        'service',
        'endpoint',
        'method',
        'status_code',
        'latency_ms',
        'success',
        'client_address',
        'error_message',
      ]);
      expect(rows).toHaveLength(4);
      const record = Object.fromEntries(rows[0].map((h, i) => [h, rows[2][i]]));
      expect(record).toMatchObject({
        agent_user_id: passId,
        timestamp: '2026-04-01T10:01:00.000Z',
        activity_type: 'error',
        endpoint: tricky,
        status_code: '500',
        success: 'false',
        error_message: message,
      });
      expect(rows[1][11]).toBe(''); // null error_message: empty field
    });

    it('streams 100 000 entries completely with bounded memory', async () => {
      const { passId: big } = await upsertPass(ctx, events, {});
      await ctx.db.query(
        `INSERT INTO agent_activity (id, agent_user_id, activity_type, service, endpoint, method,
           status_code, latency_ms, success, client_address, error_message, occurred_at)
         SELECT gen_random_uuid(), $1, 'api_request', 'org', '/v1/api/organizations/:organizationId',
           'GET', 200, i % 100, true, '10.0.0.1', NULL,
           timestamptz '2026-05-01T00:00:00Z' + i * interval '1 millisecond'
         FROM generate_series(1, 100000) AS i`,
        [big],
      );
      await ctx.app.listen(0, '127.0.0.1');
      const address = (await ctx.app.getUrl()).replace('[::1]', '127.0.0.1');
      // Live heap, not garbage awaiting collection: collect before every sample.
      setFlagsFromString('--expose-gc');
      const gc = runInNewContext('gc') as () => void;
      const liveHeap = () => {
        gc();
        return process.memoryUsage().heapUsed;
      };
      const baseline = liveHeap();
      let peak = baseline;
      const sampler = setInterval(() => {
        peak = Math.max(peak, liveHeap());
      }, 500);
      let lines = 0;
      let bytes = 0;
      let firstLine = '';
      try {
        const res = await fetch(
          `${address}/v1/api/oauth/agent/activity/export?agent_user_id=${big}&format=jsonl&sort_order=asc`,
          { headers: { 'api-key': ctx.apiKey, authorization: `Bearer ${token}` } },
        );
        expect(res.status).toBe(200);
        const decoder = new TextDecoder();
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          bytes += chunk.length;
          const text = decoder.decode(chunk, { stream: true });
          if (lines === 0) firstLine += text;
          for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lines++;
        }
      } finally {
        clearInterval(sampler);
      }
      expect(lines).toBe(100_000);
      expect(JSON.parse(firstLine.slice(0, firstLine.indexOf('\n')))).toMatchObject({
        timestamp: '2026-05-01T00:00:00.001Z',
      });
      // The file is ~35 MB; holding its 100k rows (or the body) at once needs far more than this.
      const growthMb = (peak - baseline) / 1024 / 1024;
      expect(bytes).toBeGreaterThan(25 * 1024 * 1024);
      expect(growthMb).toBeLessThan(24);
    }, 120_000);
  });

  describe('metrics', () => {
    let passId: string;
    beforeAll(async () => {
      passId = await passWith([
        { at: '2026-01-01T00:30:00Z', latency: 10 },
        { at: '2026-01-01T00:40:00Z', latency: 20 },
        { at: '2026-01-01T00:50:00Z', type: 'error', latency: 30 },
        { at: '2026-01-01T02:20:00Z', type: 'token_generation', latency: 2 },
      ]);
    });
    const metrics = async (query: string) => {
      const res = await get(`metrics?agent_user_id=${passId}${query}`);
      expect(res.statusCode).toBe(200);
      return res.json<{
        data: Record<string, unknown>[];
        meta: { period: Record<string, string> };
      }>();
    };

    it('buckets by hour with empty hours present as zeros', async () => {
      const body = await metrics(
        '&group_by=hour&start_date=2026-01-01T00:00:00Z&end_date=2026-01-01T03:00:00Z',
      );
      expect(body.meta.period).toEqual({
        start_date: '2026-01-01T00:00:00.000Z',
        end_date: '2026-01-01T03:00:00.000Z',
        group_by: 'hour',
      });
      const zero = {
        request_count: 0,
        error_count: 0,
        success_rate: 0,
        token_generations: 0,
        p50_latency_ms: 0,
        p95_latency_ms: 0,
      };
      expect(body.data).toEqual([
        {
          timestamp: '2026-01-01T00:00:00Z',
          request_count: 3,
          error_count: 1,
          success_rate: 0.6667,
          token_generations: 0,
          p50_latency_ms: 20,
          p95_latency_ms: 29,
        },
        { timestamp: '2026-01-01T01:00:00Z', ...zero },
        { timestamp: '2026-01-01T02:00:00Z', ...zero, token_generations: 1 },
        { timestamp: '2026-01-01T03:00:00Z', ...zero },
      ]);
    });

    it('buckets by day and week', async () => {
      const days = await metrics(
        '&group_by=day&start_date=2025-12-30T00:00:00Z&end_date=2026-01-02T12:00:00Z',
      );
      expect(
        days.data.map((p) => [p['timestamp'], p['request_count'], p['token_generations']]),
      ).toEqual([
        ['2025-12-30T00:00:00Z', 0, 0],
        ['2025-12-31T00:00:00Z', 0, 0],
        ['2026-01-01T00:00:00Z', 3, 1],
        ['2026-01-02T00:00:00Z', 0, 0],
      ]);
      const weeks = await metrics(
        '&group_by=week&start_date=2025-12-20T00:00:00Z&end_date=2026-01-10T00:00:00Z',
      );
      // ISO weeks start on Monday: 2025-12-15, 12-22, 12-29 (holds Jan 1), 2026-01-05.
      expect(weeks.data.map((p) => [p['timestamp'], p['request_count']])).toEqual([
        ['2025-12-15T00:00:00Z', 0],
        ['2025-12-22T00:00:00Z', 0],
        ['2025-12-29T00:00:00Z', 3],
        ['2026-01-05T00:00:00Z', 0],
      ]);
    });

    it('defaults to group_by day over the last 30 days ending now', async () => {
      const before = Date.now();
      const body = await metrics('');
      expect(body.meta.period['group_by']).toBe('day');
      const end = Date.parse(body.meta.period['end_date']);
      const start = Date.parse(body.meta.period['start_date']);
      expect(end).toBeGreaterThanOrEqual(before - 1000);
      expect(end - start).toBe(30 * 86_400_000);
      expect(body.data).toHaveLength(31);
      expect(body.data.every((p) => p['request_count'] === 0)).toBe(true);
    });
  });
});
