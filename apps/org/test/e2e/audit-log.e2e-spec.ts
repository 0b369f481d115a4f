import { waitFor } from '@wp/testing';
import { OrgTestContext, type TestUser } from '../support/org-test-app.js';

const PASSWORD = 'a long test password';

/**
 * The organization audit log (docs/org.md § Audit log) over real PostgreSQL, Redis and NATS,
 * with the real auth service beside org: org's own commands recorded in their transactions,
 * auth's user-level events copied into each organization of the user, reading with filters,
 * cursor pages and exports, who may read, and no secret ever stored.
 */
describe('org: audit log', () => {
  let ctx: OrgTestContext;
  let owner: TestUser;
  let admin: TestUser;
  let member: TestUser;
  let viewer: TestUser;
  let stranger: TestUser;
  let orgId: string;
  let projectId: string;
  /** Secrets handed out during the test: none may appear in the log. */
  const secrets: string[] = [];

  beforeAll(async () => {
    ctx = await OrgTestContext.start();
    [owner, admin, member, viewer, stranger] = await Promise.all(
      ['owner', 'admin', 'member', 'viewer', 'stranger'].map((l) => ctx.newUser(l)),
    );
    secrets.push(PASSWORD, ...[owner, admin, member, viewer, stranger].map((u) => u.token));
    orgId = await ctx.newOrganization(owner, 'Audited');
    await ctx.addMember(orgId, owner, admin, 'ADMIN');
    await ctx.addMember(orgId, owner, viewer, 'VIEWER');
    projectId = await ctx.newProject(orgId, owner, 'Ledger');
  });
  afterAll(() => ctx.close());

  const LOG = () => `/organizations/${orgId}/audit_log`;
  const P = () => `/organizations/${orgId}/projects/${projectId}`;
  const read = (query = '', token = owner.token) =>
    ctx.request('GET', `${LOG()}${query}`, { token });
  const allEntries = async (query = '') => {
    const res = await read(`?limit=100${query}`);
    expect(res.status).toBe(200);
    return res.body.data as {
      id: string;
      attributes: {
        action: string;
        outcome: string;
        actor: { type: string; id: string; email: string | null };
        target: { type: string; id: string; label: string | null } | null;
        requestId: string | null;
        clientAddress: string | null;
        service: string;
        details: Record<string, unknown>;
        occurredAt: string;
      };
    }[];
  };

  it('records organization commands with actor, target, time, address and request id', async () => {
    const headers = { 'x-request-id': 'req-audit-add-member' };
    const added = await ctx.request('POST', `/organizations/${orgId}/add_user`, {
      token: admin.token,
      headers,
      body: { data: { type: 'users', attributes: { email: member.email, role: 'VIEWER' } } },
    });
    expect(added.status).toBe(201);
    await ctx.request('PATCH', `/organizations/${orgId}/members/${member.id}/role`, {
      token: owner.token,
      body: { role: 'MEMBER' },
    });
    const invited = await ctx.request('POST', `/organizations/${orgId}/invitations`, {
      token: owner.token,
      body: {
        data: {
          type: 'membershipInvitation',
          attributes: { email: ctx.unknownEmail(), orgRole: 'viewer' },
        },
      },
    });
    expect(invited.status).toBe(201);
    await ctx.request('DELETE', `/organizations/${orgId}/invitations/${invited.body.data.id}`, {
      token: owner.token,
    });
    await ctx.addProjectMember(orgId, projectId, owner, member, 'MEMBER', 'MEMBER');
    await ctx.request('POST', `${P()}/deny_access/${member.id}`, { token: owner.token });
    await ctx.request('POST', `${P()}/restore_access/${member.id}`, { token: owner.token });

    const key = await ctx.request('POST', `${P()}/api_keys`, {
      token: owner.token,
      body: { data: { attributes: { note: 'CI key' } } },
    });
    expect(key.status).toBe(201);
    secrets.push(key.body.meta.secretKey);
    await ctx.request('DELETE', `${P()}/api_keys/${key.body.data.id}`, { token: owner.token });
    const llmSecret = `sk-SENTINEL-${ctx.namespace}-llm-secret`;
    secrets.push(llmSecret);
    const llm = await ctx.request('POST', `${P()}/llm_api_keys`, {
      token: owner.token,
      body: {
        data: { type: 'llm_api_keys', attributes: { provider: 'openai', secretKey: llmSecret } },
      },
    });
    expect(llm.status).toBe(201);
    await ctx.request('DELETE', `${P()}/llm_api_keys/${llm.body.data.id}`, { token: owner.token });
    const pass = await ctx.request('POST', `${P()}/sentinel_passes`, {
      token: owner.token,
      body: { sentinelPass: { title: 'Deploy bot' } },
    });
    expect(pass.status).toBe(201);
    secrets.push(pass.body.meta.secret);
    const S = `${P()}/sentinel_passes/${pass.body.data.id}`;
    const rotated = await ctx.request('POST', `${S}/rotate_key`, { token: owner.token });
    secrets.push(rotated.body.meta.secret);
    await ctx.request('POST', `${S}/revoke`, { token: owner.token });
    await ctx.request('POST', `${S}/activate`, { token: owner.token });
    await ctx.request('DELETE', S, { token: owner.token });

    const entries = await allEntries();
    const actions = entries.map((e) => e.attributes.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'member.added',
        'member.role_changed',
        'invitation.created',
        'invitation.cancelled',
        'project_member.added',
        'project_access.denied',
        'project_access.restored',
        'api_key.created',
        'api_key.deleted',
        'llm_api_key.created',
        'llm_api_key.deleted',
        'sentinel_pass.created',
        'sentinel_pass.rotated',
        'sentinel_pass.revoked',
        'sentinel_pass.activated',
        'sentinel_pass.deleted',
      ]),
    );
    const memberAdded = entries.find(
      (e) => e.attributes.action === 'member.added' && e.attributes.target?.id === member.id,
    )!;
    expect(memberAdded.attributes).toMatchObject({
      outcome: 'success',
      actor: { type: 'user', id: admin.id, email: admin.email },
      target: { type: 'user', id: member.id, label: member.email },
      requestId: 'req-audit-add-member',
      clientAddress: '127.0.0.1',
      service: 'org',
      details: { role: 'VIEWER' },
    });
    const roleChanged = entries.find((e) => e.attributes.action === 'member.role_changed')!;
    expect(roleChanged.attributes.details).toEqual({ role: 'MEMBER', previousRole: 'VIEWER' });
    const denied = entries.find((e) => e.attributes.action === 'project_access.denied')!;
    expect(denied.attributes.details).toMatchObject({ projectId: Number(projectId) });
    // Newest first.
    const times = entries.map((e) => Date.parse(e.attributes.occurredAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('copies a user’s sign-ins from auth into every organization of the user, and no other, within 2 s', async () => {
    const other = await ctx.newOrganization(member, 'Member’s own');
    const unrelated = await ctx.newOrganization(stranger, 'Unrelated');
    const login = (password: string) =>
      ctx.auth.inject({
        method: 'POST',
        url: '/v1/api/oauth/token',
        headers: { 'api-key': ctx.env.keys.apiKey, 'x-request-id': `signin-${password.length}` },
        payload: { username: member.email, password },
      });
    const started = Date.now();
    expect((await login('a wrong password!')).statusCode).toBe(401);
    expect((await login(PASSWORD)).statusCode).toBe(200);
    const signIns = async (organizationId: string) => {
      const res = await ctx.request(
        'GET',
        `/organizations/${organizationId}/audit_log?action=user.signed_in&actor=${member.id}`,
        { token: organizationId === orgId ? owner.token : member.token },
      );
      return res.body.data as { attributes: { outcome: string; requestId: string } }[];
    };
    const seen = await waitFor(
      async () => {
        const list = await signIns(orgId);
        return list.length >= 2 && list;
      },
      { timeoutMs: 2000, intervalMs: 25, what: 'sign-ins in the audit log' },
    );
    expect(Date.now() - started).toBeLessThan(2500);
    expect(seen.map((e) => e.attributes.outcome).sort()).toEqual(['failure', 'success']);
    expect(seen.map((e) => e.attributes.requestId).sort()).toEqual(['signin-17', 'signin-20']);
    expect(await waitFor(async () => (await signIns(other)).length >= 2)).toBe(true);
    const unrelatedLog = await ctx.request(
      'GET',
      `/organizations/${unrelated}/audit_log?actor=${member.id}`,
      { token: stranger.token },
    );
    expect(unrelatedLog.status).toBe(200);
    expect(unrelatedLog.body.data).toEqual([]);
  });

  it('never stores a password, code, token or key', async () => {
    const res = await ctx.request('GET', `${LOG()}/export?format=jsonl`, { token: owner.token });
    expect(res.status).toBe(200);
    const [rows]: { text: string }[][] = [
      await ctx.db.query("SELECT string_agg(audit_log::text, E'\\n') AS text FROM audit_log"),
    ];
    for (const secret of secrets) {
      expect(res.body).not.toContain(secret);
      expect(rows[0]?.text ?? '').not.toContain(secret);
    }
    expect(res.body).toContain('llm_api_key.created');
  });

  it('filters by actor, action and time range, and pages with a cursor, newest first', async () => {
    const everything = await allEntries();
    const byAdmin = await allEntries(`&actor=${admin.id}`);
    expect(byAdmin.length).toBeGreaterThan(0);
    expect(byAdmin.every((e) => e.attributes.actor.id === admin.id)).toBe(true);
    const passes = await allEntries('&action=sentinel_pass.created,sentinel_pass.deleted');
    expect(passes.map((e) => e.attributes.action).sort()).toEqual([
      'sentinel_pass.created',
      'sentinel_pass.deleted',
    ]);
    const future = await allEntries('&start_date=2999-01-01');
    expect(future).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    expect(await allEntries(`&start_date=${today}&end_date=${today}`)).toHaveLength(
      everything.length,
    );

    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const res = await read(`?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      pages.push(res.body.data.map((e: { id: string }) => e.id));
      cursor = res.body.meta.next_cursor;
      if (cursor) expect(res.body.links.next).toContain(`cursor=${cursor}`);
    } while (cursor);
    expect(pages.flat()).toEqual(everything.map((e) => e.id));
    expect(pages.slice(0, -1).every((p) => p.length === 3)).toBe(true);
  });

  it('exports csv, jsonl and json as streamed attachments with the same entries', async () => {
    const expected = (await allEntries()).map((e) => e.id);
    const csv = await ctx.request('GET', `${LOG()}/export?format=csv`, { token: admin.token });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toBe(
      `attachment; filename="audit-log-${orgId}.csv"`,
    );
    expect(csv.headers['cache-control']).toBe('no-store');
    const lines = (csv.body as string).trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'id,occurred_at,action,outcome,actor_type,actor_id,actor_email,target_type,target_id,target_label,client_address,request_id,user_agent,service,details',
    );
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(expected);

    const jsonl = await ctx.request('GET', `${LOG()}/export?format=jsonl`, { token: admin.token });
    expect(jsonl.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const records = (jsonl.body as string)
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string });
    expect(records.map((r) => r.id)).toEqual(expected);

    const json = await ctx.request('GET', `${LOG()}/export?action=member.added`, {
      token: admin.token,
    });
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    expect(json.body.every((r: { action: string }) => r.action === 'member.added')).toBe(true);
  });

  it('is for OWNER and ADMIN: 403 for MEMBER and VIEWER, 404 for strangers and unknown organizations', async () => {
    expect((await read('', admin.token)).status).toBe(200);
    for (const user of [member, viewer]) {
      const res = await read('', user.token);
      expect(res.status).toBe(403);
      expect(res.body.errors[0].code).toBe('FORBIDDEN');
      const exported = await ctx.request('GET', `${LOG()}/export`, { token: user.token });
      expect(exported.status).toBe(403);
    }
    for (const path of [LOG(), `${LOG()}/export`]) {
      const res = await ctx.request('GET', path, { token: stranger.token });
      expect(res.status).toBe(404);
      expect(res.body.errors[0].code).toBe('NOT_FOUND');
    }
    expect(
      (await ctx.request('GET', '/organizations/999999/audit_log', { token: owner.token })).status,
    ).toBe(404);
    expect((await ctx.request('GET', LOG())).status).toBe(401);
  });

  it('refuses invalid filters with 400 naming the parameter', async () => {
    for (const [query, parameter] of [
      ['?action=user.flew_away', 'action'],
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?cursor=bm90LWEtY3Vyc29y', 'cursor'],
      ['?cursor=a%20b', 'cursor'],
      ['?start_date=2026-W47', 'start_date'],
      ['?start_date=2026-02-01&end_date=2026-01-01', 'start_date'],
    ] as const) {
      const res = await read(query);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].source).toEqual({ parameter });
    }
    const badExport = await ctx.request('GET', `${LOG()}/export?format=xml`, {
      token: owner.token,
    });
    expect(badExport.status).toBe(400);
  });

  it('is append-only: the database refuses to change or delete entries', async () => {
    await expect(ctx.db.query(`UPDATE audit_log SET action = 'member.left'`)).rejects.toThrow(
      /append-only/,
    );
    await expect(ctx.db.query('DELETE FROM audit_log')).rejects.toThrow(/append-only/);
    await expect(ctx.db.query('TRUNCATE audit_log')).rejects.toThrow(/append-only/);
  });
});
