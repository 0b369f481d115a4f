import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startAuthTestApp, type AuthTestContext } from '../support/auth-test-app.js';
import { registerActive } from '../support/flows.js';
import {
  EventPublisher,
  parseCsv,
  setMembership,
  upsertPass,
  passWithActivity,
  type ActivitySeed,
} from '../support/sentinel.js';

/**
 * docs/api.md § Sentinel Passes (activity endpoints on {auth_url}) and
 * docs/api.md § Activity log entry and usage metric: streamed exports in three formats and
 * metrics buckets (logs: sentinel-activity.e2e-spec.ts). Rows are seeded with SQL; recording itself is proven in
 * sentinel-activity-recording.e2e-spec.ts.
 */
describe('auth: Sentinel Pass activity export and metrics', () => {
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

  const passWith = (rows: ActivitySeed[]) => passWithActivity(ctx, events, rows);

  const get = (path: string) => ctx.get(`/v1/api/oauth/agent/activity/${path}`, ctx.bearer(token));

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
    }, 300_000); // completeness and memory are asserted, not speed: a busy CI machine is slow
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
