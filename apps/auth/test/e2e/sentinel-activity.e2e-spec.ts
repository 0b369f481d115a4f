import { startAuthTestApp, type AuthTestContext } from '../support/auth-test-app.js';
import { registerActive } from '../support/flows.js';
import {
  EventPublisher,
  setMembership,
  passWithActivity,
  type ActivitySeed,
} from '../support/sentinel.js';

/**
 * docs/api.md § Sentinel Passes (activity endpoints on {auth_url}) and
 * docs/api.md § Activity log entry and usage metric: paged and filtered logs (exports and metrics:
 * sentinel-activity-export.e2e-spec.ts). Rows are seeded with SQL; recording itself is proven in
 * sentinel-activity-recording.e2e-spec.ts.
 */
describe('auth: Sentinel Pass activity logs', () => {
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
});
