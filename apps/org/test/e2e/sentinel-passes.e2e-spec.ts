import { randomUUID } from 'node:crypto';
import { connect, JSONCodec } from 'nats';
import { hashSentinelKey } from '@wp/security';
import { TEST_SERVERS, waitFor } from '@wp/testing';
import { OrgTestContext, type TestUser } from '../support/org-test-app.js';

/**
 * docs/api.md § Sentinel Passes (S = /organizations/{orgId}/projects/{projectId}/sentinel_passes),
 * docs/api.md § Sentinel Pass (unified asset format), the Sentinel Pass rows of
 * docs/api.md § States and transitions, docs/api.md § Organizations (`GET
 * /organizations/{id}/sentinel_passes`), docs/api.md § Projects (`has_tools`, `tools_count`,
 * `include=sentinelPasses`); docs/architecture.md § Decisions where the contract is silent (key
 * shown once at `meta.secret`, hashed at rest) and docs/architecture.md § Data ownership and events
 * (`org.sentinel_pass.changed`, `*.activity.recorded`).
 */
describe('Sentinel Passes', () => {
  let ctx: OrgTestContext;
  let owner: TestUser;
  let admin: TestUser;
  let member: TestUser;
  let viewer: TestUser;
  let outsider: TestUser;
  let stranger: TestUser;
  let orgId: string;
  let otherOrgId: string;
  let projectId: string;
  let secondProjectId: string;
  let S: string;

  beforeAll(async () => {
    ctx = await OrgTestContext.start();
    [owner, admin, member, viewer, outsider, stranger] = await Promise.all(
      ['owner', 'admin', 'member', 'viewer', 'outsider', 'stranger'].map((l) => ctx.newUser(l)),
    );
    orgId = await ctx.newOrganization(owner, 'Sentinel');
    otherOrgId = await ctx.newOrganization(stranger, 'Elsewhere');
    await ctx.addMember(orgId, owner, admin, 'ADMIN');
    await ctx.addMember(orgId, owner, member, 'MEMBER');
    await ctx.addMember(orgId, owner, viewer, 'VIEWER');
    projectId = await ctx.newProject(orgId, owner, 'Agents');
    secondProjectId = await ctx.newProject(orgId, owner, 'Other agents');
    await ctx.addProjectMember(orgId, projectId, owner, member, 'MEMBER');
    await ctx.addProjectMember(orgId, projectId, owner, viewer, 'VIEWER');
    S = `/organizations/${orgId}/projects/${projectId}/sentinel_passes`;
  });
  afterAll(() => ctx.close());

  const create = async (attributes: Record<string, unknown>, as: TestUser = owner, path = S) => {
    const res = await ctx.request('POST', path, {
      token: as.token,
      body: { sentinelPass: attributes },
    });
    if (res.status !== 201) throw new Error(`create failed: ${JSON.stringify(res.body)}`);
    return { pass: res.body.data, secret: res.body.meta.secret as string };
  };
  const passEvents = async (passId: string) =>
    (await ctx.outbox('org.sentinel_pass.changed'))
      .map((e) => e.payload)
      .filter((p) => p.passId === passId);
  const storedHash = async (passId: string): Promise<string | undefined> =>
    (await ctx.db.query('SELECT key_hash FROM sentinel_pass WHERE id = $1', [passId]))[0]?.key_hash;
  const toolsCount = async (id = projectId): Promise<number> =>
    (await ctx.db.query('SELECT tools_count FROM project WHERE id = $1', [Number(id)]))[0]
      .tools_count;
  const countPasses = async (): Promise<number> =>
    (await ctx.db.query('SELECT count(*)::int AS n FROM sentinel_pass'))[0].n;

  describe('lifecycle', () => {
    let passId: string;
    let firstSecret: string;

    it('creates a pass (201): unified asset format, key once in meta.secret, only its hash stored, announced as version 1', async () => {
      const before = await toolsCount();
      const expiresAt = new Date(Date.now() + 7 * 24 * 3600_000).toISOString();
      const res = await ctx.request('POST', S, {
        token: owner.token,
        body: {
          sentinelPass: {
            title: '  Deploy bot ',
            description: 'Ships releases',
            permissions: ['projects:read', 'wallets:read'],
            allowedReferers: ['*.example.com'],
            scopes: ['read', 'deploy'],
            expiresAt,
            tags: ['ci', ' prod '],
          },
        },
      });
      expect(res.status).toBe(201);
      const { data, meta } = res.body;
      passId = data.id;
      firstSecret = meta.secret;
      expect(passId).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
      expect(firstSecret).toMatch(/^sp_[A-Za-z0-9_-]{43}$/);
      expect(data).toEqual({
        type: 'studio_tool',
        id: passId,
        attributes: {
          title: 'Deploy bot',
          description: 'Ships releases',
          assetType: 'security',
          active: true,
          expired: false,
          tags: ['ci', 'prod'],
          entityType: 'project',
          entityId: projectId,
          organizationId: orgId,
          projectId,
          metadata: {
            permissions: ['projects:read', 'wallets:read'],
            allowedReferers: ['*.example.com'],
            credentialType: 'api_key',
            scopes: ['read', 'deploy'],
            expiresAt,
            lastRotated: null,
            usageCount: 0,
            lastUsedAt: null,
          },
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        },
      });
      // at rest: only the hash, nowhere the key
      expect(await storedHash(passId)).toBe(hashSentinelKey(firstSecret));
      const [{ n }] = await ctx.db.query(
        `SELECT count(*)::int AS n FROM sentinel_pass WHERE row_to_json(sentinel_pass)::text LIKE '%' || $1 || '%'`,
        [firstSecret.slice(3)],
      );
      expect(n).toBe(0);
      expect(await passEvents(passId)).toEqual([
        {
          passId,
          organizationId: Number(orgId),
          projectId: Number(projectId),
          title: 'Deploy bot',
          active: true,
          deleted: false,
          keyHash: hashSentinelKey(firstSecret),
          expiresAt,
          allowedReferers: ['*.example.com'],
          scopes: ['read', 'deploy'],
          permissions: ['projects:read', 'wallets:read'],
          version: 1,
          credentialEpoch: 0,
        },
      ]);
      expect(await toolsCount()).toBe(before + 1);
    });

    it('never shows the key again (GET, list)', async () => {
      const one = await ctx.request('GET', `${S}/${passId}`, { token: owner.token });
      expect(one.status).toBe(200);
      expect(one.body.data.id).toBe(passId);
      expect(one.body.meta).toBeUndefined();
      const list = await ctx.request('GET', S, { token: owner.token });
      for (const body of [one.body, list.body]) {
        const text = JSON.stringify(body);
        expect(text).not.toContain(firstSecret);
        expect(text).not.toContain(hashSentinelKey(firstSecret));
      }
    });

    it('updates the fields sent (PUT), keeps the others and the key, announces version 2', async () => {
      const res = await ctx.request('PUT', `${S}/${passId}`, {
        token: admin.token,
        body: { sentinelPass: { title: 'Release bot', expiresAt: null, tags: ['ci'] } },
      });
      expect(res.status).toBe(200);
      expect(res.body.meta).toBeUndefined();
      expect(res.body.data.attributes).toMatchObject({
        title: 'Release bot',
        description: 'Ships releases',
        tags: ['ci'],
        metadata: {
          expiresAt: null,
          permissions: ['projects:read', 'wallets:read'],
          scopes: ['read', 'deploy'],
        },
      });
      const events = await passEvents(passId);
      expect(events.map((e) => e.version)).toEqual([1, 2]);
      expect(events[1]).toMatchObject({
        credentialEpoch: 0,
        title: 'Release bot',
        expiresAt: null,
        keyHash: hashSentinelKey(firstSecret),
      });
    });

    it('rotates the key: a new key once, the old hash gone at once, lastRotated set, version 3', async () => {
      const res = await ctx.request('POST', `${S}/${passId}/rotate_key`, { token: owner.token });
      expect(res.status).toBe(200);
      const secret = res.body.meta.secret;
      expect(secret).toMatch(/^sp_[A-Za-z0-9_-]{43}$/);
      expect(secret).not.toBe(firstSecret);
      const lastRotated = res.body.data.attributes.metadata.lastRotated;
      expect(Date.now() - Date.parse(lastRotated)).toBeLessThan(60_000);
      expect(await storedHash(passId)).toBe(hashSentinelKey(secret));
      const [{ n }] = await ctx.db.query(
        'SELECT count(*)::int AS n FROM sentinel_pass WHERE key_hash = $1',
        [hashSentinelKey(firstSecret)],
      );
      expect(n).toBe(0);
      const events = await passEvents(passId);
      expect(events.at(-1)).toMatchObject({
        version: 3,
        credentialEpoch: 1,
        active: true,
        keyHash: hashSentinelKey(secret),
      });
      const again = await ctx.request('GET', `${S}/${passId}`, { token: viewer.token });
      expect(again.body.data.attributes.metadata.lastRotated).toBe(lastRotated);
    });

    it('revokes (active false, record kept), refuses a second revoke and a rotation while revoked (409), activates again', async () => {
      const revoked = await ctx.request('POST', `${S}/${passId}/revoke`, { token: owner.token });
      expect(revoked.status).toBe(200);
      expect(revoked.body.data.attributes.active).toBe(false);
      expect((await passEvents(passId)).at(-1)).toMatchObject({
        version: 4,
        credentialEpoch: 2,
        active: false,
      });

      const mark = await ctx.outboxMark();
      const hash = await storedHash(passId);
      const twice = await ctx.request('POST', `${S}/${passId}/revoke`, { token: owner.token });
      expect(twice.status).toBe(409);
      expect(twice.body.errors[0].code).toBe('SENTINEL_PASS_ALREADY_REVOKED');
      const rotate = await ctx.request('POST', `${S}/${passId}/rotate_key`, { token: owner.token });
      expect(rotate.status).toBe(409);
      expect(rotate.body.errors[0].code).toBe('SENTINEL_PASS_REVOKED');
      expect(await storedHash(passId)).toBe(hash);
      expect(await ctx.outbox(undefined, mark)).toEqual([]);

      const listed = await ctx.request('GET', `${S}?active=false`, { token: member.token });
      expect(listed.body.data.map((p: any) => p.id)).toEqual([passId]);

      const activated = await ctx.request('POST', `${S}/${passId}/activate`, {
        token: admin.token,
      });
      expect(activated.status).toBe(200);
      expect(activated.body.data.attributes.active).toBe(true);
      expect((await passEvents(passId)).at(-1)).toMatchObject({
        version: 5,
        credentialEpoch: 2,
        active: true,
      });
      const again = await ctx.request('POST', `${S}/${passId}/activate`, { token: admin.token });
      expect(again.status).toBe(409);
      expect(again.body.errors[0].code).toBe('SENTINEL_PASS_ALREADY_ACTIVE');
    });

    it('deletes permanently (204): announced deleted with keyHash null and version 6, tools_count back down', async () => {
      const before = await toolsCount();
      const res = await ctx.request('DELETE', `${S}/${passId}`, { token: owner.token });
      expect(res.status).toBe(204);
      expect(await storedHash(passId)).toBeUndefined();
      expect((await passEvents(passId)).at(-1)).toMatchObject({
        version: 6,
        credentialEpoch: 3,
        deleted: true,
        active: false,
        keyHash: null,
      });
      expect(await toolsCount()).toBe(before - 1);
      for (const [method, suffix] of [
        ['GET', ''],
        ['PUT', ''],
        ['DELETE', ''],
        ['POST', '/rotate_key'],
        ['POST', '/revoke'],
        ['POST', '/activate'],
      ] as const) {
        const gone = await ctx.request(method, `${S}/${passId}${suffix}`, {
          token: owner.token,
          ...(method === 'PUT' ? { body: { sentinelPass: { title: 'x' } } } : {}),
        });
        expect(gone.status).toBe(404);
      }
    });
  });

  describe('expiry', () => {
    it('shows a pass past its expiresAt with expired true (still listed, state kept)', async () => {
      const { pass } = await create({
        title: 'Short-lived',
        expiresAt: new Date(Date.now() + 60_000).toISOString(),
      });
      await ctx.db.query(
        `UPDATE sentinel_pass SET expires_at = now() - interval '1 hour' WHERE id = $1`,
        [pass.id],
      );
      const res = await ctx.request('GET', `${S}/${pass.id}`, { token: viewer.token });
      expect(res.body.data.attributes).toMatchObject({ active: true, expired: true });
      const fresh = await ctx.request('GET', S, { token: viewer.token });
      expect(fresh.body.data.find((p: any) => p.id === pass.id).attributes.expired).toBe(true);
      await ctx.request('DELETE', `${S}/${pass.id}`, { token: owner.token });
    });
  });

  describe('validation', () => {
    it('answers 400 with a pointer and writes nothing for every malformed body', async () => {
      const past = '2020-01-01T00:00:00Z';
      const cases: [unknown, string][] = [
        [{ sentinelPass: {} }, '/sentinelPass/title'],
        [{ sentinelPass: { title: '   ' } }, '/sentinelPass/title'],
        [{ sentinelPass: { title: 'x'.repeat(201) } }, '/sentinelPass/title'],
        [{ title: 'not wrapped' }, '/sentinelPass'],
        [{ sentinelPass: { title: 'a', permissions: ['has space'] } }, '/sentinelPass/permissions'],
        [{ sentinelPass: { title: 'a', permissions: [''] } }, '/sentinelPass/permissions'],
        [{ sentinelPass: { title: 'a', permissions: [42] } }, '/sentinelPass/permissions'],
        [{ sentinelPass: { title: 'a', permissions: ['a/b'] } }, '/sentinelPass/permissions'],
        [
          { sentinelPass: { title: 'a', permissions: ['x'.repeat(101)] } },
          '/sentinelPass/permissions',
        ],
        [
          { sentinelPass: { title: 'a', permissions: Array.from({ length: 51 }, () => 'read') } },
          '/sentinelPass/permissions',
        ],
        [
          { sentinelPass: { title: 'a', permissions: 'projects:read' } },
          '/sentinelPass/permissions',
        ],
        [{ sentinelPass: { title: 'a', expiresAt: past } }, '/sentinelPass/expiresAt'],
        [{ sentinelPass: { title: 'a', expiresAt: 'tomorrow' } }, '/sentinelPass/expiresAt'],
        [{ sentinelPass: { title: 'a', entityType: 'organization' } }, '/sentinelPass/entityType'],
        [{ sentinelPass: { title: 'a', entityId: secondProjectId } }, '/sentinelPass/entityId'],
        [{ sentinelPass: { title: 'a', tags: ['a,b'] } }, '/sentinelPass/tags'],
        [{ sentinelPass: { title: 'a', tags: [''] } }, '/sentinelPass/tags'],
        [{ sentinelPass: { title: 'a', scopes: ['has space'] } }, '/sentinelPass/scopes'],
        [
          { sentinelPass: { title: 'a', allowedReferers: ['a b'] } },
          '/sentinelPass/allowedReferers',
        ],
        [
          { sentinelPass: { title: 'a', credentialType: 'API KEY' } },
          '/sentinelPass/credentialType',
        ],
        [{ sentinelPass: { title: 'a', description: 42 } }, '/sentinelPass/description'],
      ];
      const rows = await countPasses();
      const mark = await ctx.outboxMark();
      const tools = await toolsCount();
      for (const [body, pointer] of cases) {
        const res = await ctx.request('POST', S, { token: owner.token, body });
        expect({ body, status: res.status }).toEqual({ body, status: 400 });
        expect(res.body.errors.map((e: any) => e.source.pointer)).toContain(pointer);
      }
      expect(await countPasses()).toBe(rows);
      expect(await ctx.outbox(undefined, mark)).toEqual([]);
      expect(await toolsCount()).toBe(tools);
    });

    it('accepts entityId equal to the path project and entityType project', async () => {
      const { pass } = await create({
        title: 'Explicit',
        entityType: 'project',
        entityId: Number(projectId),
      });
      expect(pass.attributes.entityId).toBe(projectId);
      await ctx.request('DELETE', `${S}/${pass.id}`, { token: owner.token });
    });

    it('rejects malformed PUT bodies, ids and query parameters (400) and changes nothing', async () => {
      const { pass } = await create({ title: 'Stable' });
      const mark = await ctx.outboxMark();
      for (const body of [
        { sentinelPass: { title: '' } },
        { sentinelPass: { permissions: ['root access'] } },
        { sentinelPass: { expiresAt: '2001-01-01T00:00:00Z' } },
        {},
      ]) {
        const res = await ctx.request('PUT', `${S}/${pass.id}`, { token: owner.token, body });
        expect(res.status).toBe(400);
      }
      expect((await ctx.request('GET', `${S}/not-a-uuid`, { token: owner.token })).status).toBe(
        400,
      );
      expect(
        (
          await ctx.request('GET', `/organizations/${orgId}/projects/abc/sentinel_passes`, {
            token: owner.token,
          })
        ).status,
      ).toBe(400);
      for (const query of [
        'active=maybe',
        'credential_type=Bad-Type',
        `search=${'x'.repeat(201)}`,
        'tags=,' + 'y'.repeat(51),
      ]) {
        const res = await ctx.request('GET', `${S}?${query}`, { token: owner.token });
        expect({ query, status: res.status }).toEqual({ query, status: 400 });
        const org = await ctx.request('GET', `/organizations/${orgId}/sentinel_passes?${query}`, {
          token: owner.token,
        });
        expect({ query, status: org.status }).toEqual({ query, status: 400 });
      }
      expect(await ctx.outbox(undefined, mark)).toEqual([]);
      const after = await ctx.request('GET', `${S}/${pass.id}`, { token: owner.token });
      expect(after.body.data.attributes.title).toBe('Stable');
      await ctx.request('DELETE', `${S}/${pass.id}`, { token: owner.token });
    });
  });

  describe('lists, filters, tools_count, include', () => {
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      ids.alpha = (await create({ title: 'Alpha 100% bot', tags: ['ci', 'prod'] })).pass.id;
      ids.beta = (
        await create({ title: 'beta', tags: ['ci'], credentialType: 'oauth_client' })
      ).pass.id;
      ids.gamma = (await create({ title: 'GAMMA bot', tags: ['prod', 'eu', 'ci'] })).pass.id;
      await ctx.request('POST', `${S}/${ids.gamma}/revoke`, { token: owner.token });
      ids.other = (
        await create(
          { title: 'Other project bot', tags: ['ci'] },
          owner,
          `/organizations/${orgId}/projects/${secondProjectId}/sentinel_passes`,
        )
      ).pass.id;
    });
    afterAll(async () => {
      for (const key of ['alpha', 'beta', 'gamma']) {
        await ctx.request('DELETE', `${S}/${ids[key]}`, { token: owner.token });
      }
    });

    const listed = async (query: string, path = S, as: TestUser = owner) => {
      const res = await ctx.request('GET', `${path}${query}`, { token: as.token });
      expect(res.status).toBe(200);
      return res.body.data.map((p: any) => p.id);
    };

    it('lists a project’s passes oldest first and filters by active, credential_type, search and tags (all of them)', async () => {
      expect(await listed('')).toEqual([ids.alpha, ids.beta, ids.gamma]);
      expect(await listed('?active=true')).toEqual([ids.alpha, ids.beta]);
      expect(await listed('?active=0')).toEqual([ids.gamma]);
      expect(await listed('?credential_type=oauth_client')).toEqual([ids.beta]);
      expect(await listed('?credential_type=api_key')).toEqual([ids.alpha, ids.gamma]);
      expect(await listed('?search=BOT')).toEqual([ids.alpha, ids.gamma]);
      expect(await listed('?search=100%25')).toEqual([ids.alpha]);
      expect(await listed('?search=_')).toEqual([]);
      expect(await listed('?tags=ci')).toEqual([ids.alpha, ids.beta, ids.gamma]);
      expect(await listed('?tags=prod,ci')).toEqual([ids.alpha, ids.gamma]);
      expect(await listed('?tags=prod,%20eu%20')).toEqual([ids.gamma]);
      expect(await listed('?tags=prod,nope')).toEqual([]);
      expect(await listed('?tags=PROD')).toEqual([]);
      expect(await listed('?tags=ci&active=true&search=a')).toEqual([ids.alpha, ids.beta]);
    });

    it('keeps tools_count equal to the number of passes, which has_tools and sort=tools_count use', async () => {
      expect(await toolsCount()).toBe(3);
      expect(await toolsCount(secondProjectId)).toBe(1);
      const P = `/organizations/${orgId}/projects`;
      const withTools = await listed('?has_tools=true', P);
      expect(withTools.sort()).toEqual([projectId, secondProjectId].sort());
      const withoutTools = await listed('?has_tools=false', P);
      expect(withoutTools).not.toContain(projectId);
      expect(withoutTools).toContain(await ctx.defaultProject(orgId));
      const sorted = await listed('?sort=-tools_count', P);
      expect(sorted.slice(0, 2)).toEqual([projectId, secondProjectId]);
      const project = await ctx.request('GET', `${P}/${projectId}`, { token: owner.token });
      expect(project.body.data.attributes).toMatchObject({ toolsCount: 3, hasTools: true });
    });

    it('includes the project’s passes with include=sentinelPasses (no keys), for every role that can read', async () => {
      for (const as of [owner, viewer]) {
        const res = await ctx.request(
          'GET',
          `/organizations/${orgId}/projects/${projectId}?include=sentinelPasses`,
          {
            token: as.token,
          },
        );
        expect(res.status).toBe(200);
        expect(res.body.data.relationships.sentinelPasses.data).toEqual(
          [ids.alpha, ids.beta, ids.gamma].map((id) => ({ type: 'studio_tool', id })),
        );
        expect(res.body.included.map((r: any) => r.id)).toEqual([ids.alpha, ids.beta, ids.gamma]);
        expect(res.body.included[0].attributes.assetType).toBe('security');
        expect(JSON.stringify(res.body)).not.toMatch(/keyHash|"secret"|sp_[A-Za-z0-9_-]{43}/);
      }
    });

    it('lists passes across the organization’s projects the caller can see, with the same filters', async () => {
      const O = `/organizations/${orgId}/sentinel_passes`;
      expect(await listed('', O, owner)).toEqual([ids.alpha, ids.beta, ids.gamma, ids.other]);
      expect(await listed('', O, admin)).toEqual([ids.alpha, ids.beta, ids.gamma, ids.other]);
      // MEMBER and VIEWER are members of the first project only
      expect(await listed('', O, member)).toEqual([ids.alpha, ids.beta, ids.gamma]);
      expect(await listed('', O, viewer)).toEqual([ids.alpha, ids.beta, ids.gamma]);
      expect(await listed('?tags=ci&active=true', O)).toEqual([ids.alpha, ids.beta, ids.other]);
      expect(await listed('?search=other', O)).toEqual([ids.other]);
      expect(await listed('?credential_type=oauth_client', O)).toEqual([ids.beta]);
      for (const as of [outsider, stranger]) {
        const res = await ctx.request('GET', O, { token: as.token });
        expect(res.status).toBe(404);
      }
    });
  });

  describe('roles and tenants', () => {
    it('lets VIEWER and MEMBER read but not manage (403, nothing changed); ADMIN and OWNER manage; others get 404', async () => {
      const { pass } = await create({ title: 'Guarded' });
      const one = `${S}/${pass.id}`;
      const reads = [
        ['GET', S],
        ['GET', one],
      ] as const;
      const writes = [
        ['POST', S, { sentinelPass: { title: 'sneaky' } }],
        ['PUT', one, { sentinelPass: { title: 'sneaky' } }],
        ['POST', `${one}/rotate_key`, undefined],
        ['POST', `${one}/revoke`, undefined],
        ['POST', `${one}/activate`, undefined],
        ['DELETE', one, undefined],
      ] as const;
      const hash = await storedHash(pass.id);
      const rows = await countPasses();
      const mark = await ctx.outboxMark();
      for (const as of [viewer, member]) {
        for (const [method, url] of reads) {
          expect((await ctx.request(method, url, { token: as.token })).status).toBe(200);
        }
        for (const [method, url, body] of writes) {
          const res = await ctx.request(method, url, { token: as.token, body });
          expect({ method, url, status: res.status }).toEqual({ method, url, status: 403 });
          expect(res.body.errors[0].code).toBe('FORBIDDEN');
        }
      }
      for (const as of [outsider, stranger]) {
        for (const [method, url, body] of [
          ...reads.map(([m, u]) => [m, u, undefined] as const),
          ...writes,
        ]) {
          const res = await ctx.request(method, url, { token: as.token, body });
          expect({ method, url, status: res.status }).toEqual({ method, url, status: 404 });
        }
      }
      // a member of the organization without access to the second project: 404 there
      const second = `/organizations/${orgId}/projects/${secondProjectId}/sentinel_passes`;
      expect((await ctx.request('GET', second, { token: member.token })).status).toBe(404);
      // the pass through another organization's path, and another organization's project
      expect(
        (
          await ctx.request(
            'GET',
            `/organizations/${otherOrgId}/projects/${projectId}/sentinel_passes/${pass.id}`,
            { token: stranger.token },
          )
        ).status,
      ).toBe(404);
      expect(
        (await ctx.request('GET', `${second}/${pass.id}`, { token: owner.token })).status,
      ).toBe(404);
      expect(await storedHash(pass.id)).toBe(hash);
      expect(await countPasses()).toBe(rows);
      expect(await ctx.outbox(undefined, mark)).toEqual([]);

      // a project member whose access is denied sees nothing of the project's passes
      const project = `/organizations/${orgId}/projects/${projectId}`;
      const deny = await ctx.request('POST', `${project}/deny_access/${viewer.id}`, {
        token: owner.token,
      });
      expect(deny.status).toBe(200);
      expect((await ctx.request('GET', S, { token: viewer.token })).status).toBe(404);
      expect((await ctx.request('GET', one, { token: viewer.token })).status).toBe(404);
      const orgList = await ctx.request('GET', `/organizations/${orgId}/sentinel_passes`, {
        token: viewer.token,
      });
      expect(orgList.status).toBe(200);
      expect(orgList.body.data).toEqual([]);
      const restore = await ctx.request('POST', `${project}/restore_access/${viewer.id}`, {
        token: owner.token,
      });
      expect(restore.status).toBe(200);
      expect((await ctx.request('GET', one, { token: viewer.token })).status).toBe(200);

      // ADMIN manages
      const rotated = await ctx.request('POST', `${one}/rotate_key`, { token: admin.token });
      expect(rotated.status).toBe(200);
      const created = await create({ title: 'By admin' }, admin);
      expect(
        (await ctx.request('DELETE', `${S}/${created.pass.id}`, { token: admin.token })).status,
      ).toBe(204);
      expect((await ctx.request('DELETE', one, { token: owner.token })).status).toBe(204);
    });
  });

  describe('usage from activity events', () => {
    it('counts each api_request entry of a published activity batch once (idempotent), ignoring other types and unknown passes', async () => {
      const { pass } = await create({ title: 'Busy agent' });
      const { pass: idle } = await create({ title: 'Idle agent' });
      const entry = (activityType: string, agentUserId: string, occurredAt: string) => ({
        id: randomUUID(),
        agentUserId,
        activityType,
        service: 'org',
        endpoint: '/v1/api/organizations/:organizationId/projects/:projectId',
        method: 'GET',
        statusCode: activityType === 'error' ? 403 : 200,
        latencyMs: 1.5,
        success: activityType !== 'error',
        clientAddress: '127.0.0.1',
        occurredAt,
      });
      const t1 = '2026-01-01T10:00:00.000Z';
      const t2 = '2026-01-01T11:00:00.000Z';
      const batch = {
        id: randomUUID(),
        subject: 'org.activity.recorded',
        occurredAt: new Date().toISOString(),
        payload: {
          entries: [
            entry('api_request', pass.id, t2),
            entry('api_request', pass.id, t1),
            entry('api_request', pass.id, t1),
            entry('error', pass.id, t2),
            entry('token_generation', pass.id, t2),
            entry('api_request', randomUUID(), t2),
          ],
        },
      };
      const walletBatch = {
        id: randomUUID(),
        subject: 'wallet.activity.recorded',
        occurredAt: new Date().toISOString(),
        payload: { entries: [{ ...entry('api_request', pass.id, t1), service: 'wallet' }] },
      };
      const codec = JSONCodec();
      const nc = await connect({ servers: TEST_SERVERS.nats });
      try {
        const js = nc.jetstream();
        await js.publish(`${ctx.namespace}.org.activity.recorded`, codec.encode(batch), {
          msgID: batch.id,
        });
        // the same event again under another message id (past the broker's de-duplication):
        // the processed-event record must skip it
        await js.publish(`${ctx.namespace}.org.activity.recorded`, codec.encode(batch), {
          msgID: randomUUID(),
        });
        await js.publish(`${ctx.namespace}.wallet.activity.recorded`, codec.encode(walletBatch), {
          msgID: walletBatch.id,
        });
      } finally {
        await nc.close();
      }
      await waitFor(
        async () => {
          const rows = await ctx.db.query(
            `SELECT count(*)::int AS n FROM processed_event WHERE event_id = ANY($1::uuid[])`,
            [[batch.id, walletBatch.id]],
          );
          return rows[0].n === 2;
        },
        { what: 'activity batches consumed' },
      );
      // a moment for a (wrong) second application of the duplicate to land
      await new Promise((r) => setTimeout(r, 300));
      const res = await ctx.request('GET', `${S}/${pass.id}`, { token: viewer.token });
      expect(res.body.data.attributes.metadata).toMatchObject({ usageCount: 4, lastUsedAt: t2 });
      const quiet = await ctx.request('GET', `${S}/${idle.id}`, { token: viewer.token });
      expect(quiet.body.data.attributes.metadata).toMatchObject({
        usageCount: 0,
        lastUsedAt: null,
      });
      // usage is not a credential change: no event, no version
      expect((await passEvents(pass.id)).map((e) => e.version)).toEqual([1]);
    });
  });

  describe('project deletion', () => {
    it('announces every pass of a deleted project as deleted', async () => {
      const doomed = await ctx.newProject(orgId, owner, 'Doomed');
      const path = `/organizations/${orgId}/projects/${doomed}/sentinel_passes`;
      const a = await create({ title: 'one' }, owner, path);
      const b = await create({ title: 'two' }, owner, path);
      await ctx.request('POST', `${path}/${b.pass.id}/revoke`, { token: owner.token });
      const res = await ctx.request('DELETE', `/organizations/${orgId}/projects/${doomed}`, {
        token: owner.token,
      });
      expect(res.status).toBe(204);
      expect((await passEvents(a.pass.id)).at(-1)).toMatchObject({
        version: 2,
        deleted: true,
        keyHash: null,
      });
      expect((await passEvents(b.pass.id)).at(-1)).toMatchObject({
        version: 3,
        deleted: true,
        keyHash: null,
      });
      expect(await storedHash(a.pass.id)).toBeUndefined();
    });
  });
});
