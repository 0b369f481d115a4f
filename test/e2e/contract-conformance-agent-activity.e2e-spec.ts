import { waitFor } from '@wp/testing';
import { expectError, ISO, useConformanceWorld } from '../support/conformance.js';

/**
 * Contract conformance, exercised as a client that reads only the contract and
 * docs/architecture.md would: through the gateway (`/v1/api`, `Api-Key`), with the field names,
 * casing, wrappers, statuses, defaults, error bodies and pagination meta they give.
 * Agent activity (auth): docs/api.md § Sentinel Passes (activity logs, export and metrics),
 * docs/api.md § Errors, docs/api.md § Limits; docs/architecture.md § Decisions where the contract
 * is silent (error body, statuses). The pass's activity is what an agent leaves in
 * contract-conformance-sentinel-passes.e2e-spec.ts before its key is rotated: one exchange, one
 * call of its project, one refused exchange.
 * The platform, its users and organization: test/support/conformance.ts.
 */
describe('contract conformance: user settings, Sentinel Pass, agent activity', () => {
  const world = useConformanceWorld();

  describe('Sentinel Pass (org) and the agent (auth)', () => {
    let passId: string;

    /** A pass whose agent exchanged its key, read its project once and was refused once. */
    beforeAll(async () => {
      const S = `/v1/api/organizations/${world.orgId}/projects/${world.projectId}/sentinel_passes`;
      const created = await world.stack.request('POST', S, {
        token: world.token,
        body: { sentinelPass: { title: 'Reader bot', permissions: ['projects:read'] } },
      });
      expect(created.status).toBe(201);
      passId = created.body.data.id;
      const secret: string = created.body.meta.secret;
      const exchanged = await waitFor(
        async () => {
          const r = await world.stack.request('POST', '/v1/api/oauth/token', {
            body: { grant_type: 'client_credentials', client_id: passId, client_secret: secret },
          });
          return r.status === 200 && r;
        },
        { what: 'the exchange to succeed' },
      );
      const project = await world.stack.request(
        'GET',
        `/v1/api/organizations/${world.orgId}/projects/${world.projectId}`,
        { token: exchanged.body.data.attributes.accessToken },
      );
      expect(project.status).toBe(200);
      await waitFor(
        async () =>
          (await world.stack.request('GET', `${S}/${passId}`, { token: world.token })).body.data
            .attributes.metadata.usageCount === 1,
        { what: 'usageCount 1', timeoutMs: 15_000 },
      );
      const refused = await world.stack.request('POST', '/v1/api/oauth/token', {
        body: { grant_type: 'client_credentials', client_id: passId, client_secret: 'sp_wrong' },
      });
      expect(refused.status).toBe(401);
    });

    it('activity logs: data + integer meta.page/per_page/total_count/total_pages, default page size 25', async () => {
      const body = await waitFor(
        async () => {
          const res = await world.stack.request(
            'GET',
            `/v1/api/oauth/agent/activity/logs?agent_user_id=${passId}`,
            { token: world.token },
          );
          return res.status === 200 && res.body.meta.total_count >= 3 && res.body;
        },
        { what: 'three activity entries', timeoutMs: 15_000 },
      );
      expect(Array.isArray(body.data)).toBe(true);
      expect(body.meta).toMatchObject({ page: 1, per_page: 25, total_count: 3, total_pages: 1 });
      const types = body.data.map((e: any) => e.activity_type).sort();
      expect(types).toEqual(['api_request', 'error', 'token_generation']);

      const page = await world.stack.request(
        'GET',
        `/v1/api/oauth/agent/activity/logs?agent_user_id=${passId}&page=2&per_page=2&sort_order=asc&success=true`,
        { token: world.token },
      );
      expect(page.status).toBe(200);
      expect(page.body.meta).toEqual({ page: 2, per_page: 2, total_count: 2, total_pages: 1 });
      expect(page.body.data).toEqual([]);

      // `endpoint`: the route template of an entry, or the concrete path called, with or
      // without the /v1/api prefix of {org_url}
      const template = body.data.find((e: any) => e.activity_type === 'api_request').endpoint;
      for (const endpoint of [
        template,
        `/v1/api/organizations/${world.orgId}/projects/${world.projectId}`,
        `/organizations/${world.orgId}/projects/${world.projectId}`,
      ]) {
        const res = await world.stack.request(
          'GET',
          `/v1/api/oauth/agent/activity/logs?agent_user_id=${passId}&endpoint=${encodeURIComponent(endpoint)}`,
          { token: world.token },
        );
        expect({ endpoint, types: res.body.data?.map((e: any) => e.activity_type) }).toEqual({
          endpoint,
          types: ['api_request'],
        });
      }
      const other = await world.stack.request(
        'GET',
        `/v1/api/oauth/agent/activity/logs?agent_user_id=${passId}&endpoint=${encodeURIComponent(`/organizations/${world.orgId}/projects/${world.projectId}/users`)}`,
        { token: world.token },
      );
      expect(other.body.data).toEqual([]);

      // ISO 8601 calendar dates are whole UTC days: today..today holds today's entries
      const today = new Date().toISOString().slice(0, 10);
      const day = await world.stack.request(
        'GET',
        `/v1/api/oauth/agent/activity/logs?agent_user_id=${passId}&start_date=${today}&end_date=${today}`,
        { token: world.token },
      );
      expect(day.status).toBe(200);
      expect(day.body.meta.total_count).toBe(3);
      const dayMetrics = await world.stack.request(
        'GET',
        `/v1/api/oauth/agent/activity/metrics?agent_user_id=${passId}&start_date=${today}&end_date=${today}`,
        { token: world.token },
      );
      expect(dayMetrics.body.data).toHaveLength(1);
      expect(dayMetrics.body.data[0].request_count).toBe(2);
      // other ISO 8601 forms are a 400 naming the parameter, never a 500
      for (const path of ['logs', 'export', 'metrics']) {
        const res = await world.stack.request(
          'GET',
          `/v1/api/oauth/agent/activity/${path}?agent_user_id=${passId}&start_date=2026-W47`,
          { token: world.token },
        );
        expectError(res, 400);
        expect(res.body.errors[0].source).toEqual({ parameter: 'start_date' });
      }

      expectError(
        await world.stack.request('GET', '/v1/api/oauth/agent/activity/logs', {
          token: world.token,
        }),
        400,
      );
      expectError(
        await world.stack.request(
          'GET',
          `/v1/api/oauth/agent/activity/logs?agent_user_id=${passId}`,
          {
            token: world.strangerToken,
          },
        ),
        404,
      );
    });

    it('activity export: a file download, json by default, csv and jsonl on request', async () => {
      const url = `${world.stack.gatewayUrl}/v1/api/oauth/agent/activity/export?agent_user_id=${passId}`;
      const headers = { 'api-key': world.stack.apiKey, authorization: `Bearer ${world.token}` };
      const json = await fetch(url, { headers });
      expect(json.status).toBe(200);
      expect(json.headers.get('content-type')).toMatch(/^application\/json/);
      expect(json.headers.get('content-disposition')).toMatch(/^attachment; filename=".+\.json"$/);
      const rows = JSON.parse(await json.text());
      expect(rows).toHaveLength(3);

      const csv = await fetch(`${url}&format=csv`, { headers });
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
      expect((await csv.text()).trim().split('\r\n')).toHaveLength(4);

      const jsonl = await fetch(`${url}&format=jsonl`, { headers });
      expect(jsonl.status).toBe(200);
      const lines = (await jsonl.text()).trim().split('\n');
      expect(lines.map((l) => JSON.parse(l).agent_user_id)).toEqual([passId, passId, passId]);

      const bad = await world.stack.request(
        'GET',
        `/v1/api/oauth/agent/activity/export?agent_user_id=${passId}&format=xml`,
        { token: world.token },
      );
      expectError(bad, 400);
    });

    it('activity metrics: data points and meta.period.start_date/end_date/group_by (default day)', async () => {
      const res = await world.stack.request(
        'GET',
        `/v1/api/oauth/agent/activity/metrics?agent_user_id=${passId}`,
        { token: world.token },
      );
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body.data)).toBe(true);
      expect(res.body.meta.period.group_by).toBe('day');
      expect(res.body.meta.period.start_date).toMatch(ISO);
      expect(res.body.meta.period.end_date).toMatch(ISO);
      const hourly = await world.stack.request(
        'GET',
        `/v1/api/oauth/agent/activity/metrics?agent_user_id=${passId}&group_by=hour`,
        { token: world.token },
      );
      expect(hourly.body.meta.period.group_by).toBe('hour');
      expectError(
        await world.stack.request(
          'GET',
          `/v1/api/oauth/agent/activity/metrics?agent_user_id=${passId}&group_by=month`,
          { token: world.token },
        ),
        400,
      );
    });
  });
});
