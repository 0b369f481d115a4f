import { waitFor } from '@wp/testing';
import { PlatformStack } from '../support/stack.js';

/**
 * A Sentinel Pass across services, through the gateway, over real PostgreSQL, Redis and NATS
 * (docs/api.md § Sentinel Passes; docs/architecture.md § Sentinel Pass key): org creates the pass →
 * auth exchanges its key (`client_credentials`) for an agent token → the agent reads its
 * project on org → auth's activity log shows the `token_generation` and the `api_request`, and
 * org's `usageCount` counts the request → `rotate_key` makes auth refuse the old key at once
 * while the new one works.
 */
describe('Sentinel Pass across services', () => {
  let stack: PlatformStack;
  let token: string;
  let orgId: string;
  let projectId: string;
  let passId: string;
  let key: string;

  beforeAll(async () => {
    stack = await PlatformStack.start();
    const registered = await stack.request('POST', '/v1/api/users', {
      body: { username: 'agent-owner@example.com', password: 'a long password' },
    });
    expect(registered.status).toBe(200);
    token = registered.body.data.attributes.accessToken;
    const org = await stack.request('POST', '/v1/api/organizations', {
      token,
      body: { data: { type: 'organization', attributes: { name: 'Agents Inc' } } },
    });
    expect(org.status).toBe(200);
    orgId = org.body.data.id;
    const project = await stack.request('POST', `/v1/api/organizations/${orgId}/projects`, {
      token,
      body: { data: { type: 'project', attributes: { name: 'Bots' } } },
    });
    expect(project.status).toBe(201);
    projectId = project.body.data.id;
  });
  afterAll(() => stack.close());

  const S = () => `/v1/api/organizations/${orgId}/projects/${projectId}/sentinel_passes`;
  const exchange = (secret: string) =>
    stack.request('POST', '/v1/api/oauth/token', {
      body: { grant_type: 'client_credentials', client_id: passId, client_secret: secret },
    });
  /** Auth consumes `org.sentinel_pass.changed` asynchronously: wait for the wanted answer. */
  const exchangeUntil = (secret: string, status: number) =>
    waitFor(
      async () => {
        const res = await exchange(secret);
        return res.status === status && res;
      },
      { what: `exchange answering ${status}` },
    );
  const logs = (query = '') =>
    stack.request('GET', `/v1/api/oauth/agent/activity/logs?agent_user_id=${passId}${query}`, {
      token,
    });

  it('creates a pass on org and exchanges its key on auth for an agent token bound to the project', async () => {
    const created = await stack.request('POST', S(), {
      token,
      body: { sentinelPass: { title: 'Reader bot', permissions: ['projects:read'] } },
    });
    expect(created.status).toBe(201);
    passId = created.body.data.id;
    key = created.body.meta.secret;

    const res = await exchangeUntil(key, 200);
    expect(res.body.data).toMatchObject({ id: passId, type: 'session' });
    const agentToken = res.body.data.attributes.accessToken;
    const info = await stack.request('GET', '/v1/api/oauth/token/info', { token: agentToken });
    expect(info.status).toBe(200);
    expect(JSON.stringify(info.body)).toContain(passId);

    const project = await stack.request(
      'GET',
      `/v1/api/organizations/${orgId}/projects/${projectId}`,
      { token: agentToken },
    );
    expect(project.status).toBe(200);
    expect(project.body.data.id).toBe(projectId);
  });

  it('shows the token_generation and both api_requests (auth, org) in auth’s activity log, and counts the requests in org’s usageCount', async () => {
    const body = await waitFor(
      async () => {
        const res = await logs('&sort_order=asc');
        return res.status === 200 && res.body.meta.total_count >= 3 && res.body;
      },
      { what: 'three activity entries', timeoutMs: 15_000 },
    );
    expect(body.meta.total_count).toBe(3);
    expect(body.data.map((e: any) => [e.activity_type, e.service])).toEqual([
      ['token_generation', 'auth'],
      ['api_request', 'auth'],
      ['api_request', 'org'],
    ]);
    expect(body.data[1]).toMatchObject({
      endpoint: '/v1/api/oauth/token/info',
      method: 'GET',
      status_code: 200,
    });
    expect(body.data[2]).toMatchObject({
      agent_user_id: passId,
      method: 'GET',
      endpoint: '/v1/api/organizations/:organizationId/projects/:projectId',
      status_code: 200,
      success: true,
    });
    const filtered = await logs('&activity_type=api_request');
    expect(filtered.body.data).toHaveLength(2);

    // org counts every api_request of the pass, whichever service answered it
    await waitFor(
      async () => {
        const res = await stack.request('GET', `${S()}/${passId}`, { token });
        return res.body.data.attributes.metadata.usageCount === 2;
      },
      { what: 'usageCount 2 on org' },
    );
  });

  it('sorts the activity log by created_at or createdAt as by timestamp, and refuses an unknown sort_by with 400', async () => {
    const ids = async (query: string) => {
      const res = await logs(query);
      expect(res.status).toBe(200);
      return res.body.data.map((e: { id: string }) => e.id);
    };
    for (const order of ['asc', 'desc']) {
      const byTimestamp = await ids(`&sort_by=timestamp&sort_order=${order}`);
      expect(byTimestamp).toHaveLength(3);
      expect(await ids(`&sort_by=created_at&sort_order=${order}`)).toEqual(byTimestamp);
      expect(await ids(`&sort_by=createdAt&sort_order=${order}`)).toEqual(byTimestamp);
    }
    const asc = await logs('&sort_by=created_at&sort_order=asc');
    const times = asc.body.data.map((e: { timestamp: string }) => e.timestamp);
    expect(times).toEqual([...times].sort());
    const unknown = await logs('&sort_by=created');
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0]).toMatchObject({
      code: 'VALIDATION_FAILED',
      source: { parameter: 'sort_by' },
    });
  });

  it('refuses the old key at once after rotate_key; the new key works', async () => {
    const rotated = await stack.request('POST', `${S()}/${passId}/rotate_key`, { token });
    expect(rotated.status).toBe(200);
    const newKey = rotated.body.meta.secret;
    expect(newKey).not.toBe(key);
    // refused at once (org deny-listed the epoch), then for good once auth has the new hash
    const refused = await exchange(key);
    expect([refused.status, refused.body.errors[0].code]).toEqual([401, 'INVALID_CLIENT']);
    await exchangeUntil(newKey, 200);
    expect((await exchange(key)).status).toBe(401);
    key = newKey;
    // the refusal is recorded as an error of this pass
    await waitFor(
      async () => {
        const res = await logs('&activity_type=error');
        return res.body.data?.some((e: any) => e.error_message === 'invalid key');
      },
      { what: 'the refused exchange in the log' },
    );
  });

  it('refuses the key while the pass is revoked, accepts it again after activate, and never after delete', async () => {
    expect((await stack.request('POST', `${S()}/${passId}/revoke`, { token })).status).toBe(200);
    await exchangeUntil(key, 401);
    expect((await stack.request('POST', `${S()}/${passId}/activate`, { token })).status).toBe(200);
    await exchangeUntil(key, 200);
    expect((await stack.request('DELETE', `${S()}/${passId}`, { token })).status).toBe(204);
    await exchangeUntil(key, 401);
  });
});
