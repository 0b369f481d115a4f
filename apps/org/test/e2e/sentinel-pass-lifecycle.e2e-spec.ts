import { hashSentinelKey } from '@wp/security';
import { sentinelPassHelpers, useSentinelPassWorld } from '../support/sentinel-passes.js';

/**
 * docs/api.md § Sentinel Passes (S = /organizations/{orgId}/projects/{projectId}/sentinel_passes),
 * docs/api.md § Sentinel Pass (unified asset format), the Sentinel Pass rows of
 * docs/api.md § States and transitions; docs/architecture.md § Decisions where the contract is
 * silent (key shown once at `meta.secret`, hashed at rest) and docs/architecture.md § Data
 * ownership and events (`org.sentinel_pass.changed`): create → key once → PUT → rotate → revoke
 * → activate → delete with every event, expiry, and project deletion announcing its passes
 * deleted.
 * The organization, its members and projects: apps/org/test/support/sentinel-passes.ts.
 */
describe('Sentinel Passes', () => {
  const world = useSentinelPassWorld();

  const { create, passEvents, storedHash, toolsCount } = sentinelPassHelpers(world);

  describe('lifecycle', () => {
    let passId: string;
    let firstSecret: string;

    it('creates a pass (201): unified asset format, key once in meta.secret, only its hash stored, announced as version 1', async () => {
      const before = await toolsCount();
      const expiresAt = new Date(Date.now() + 7 * 24 * 3600_000).toISOString();
      const res = await world.ctx.request('POST', world.S, {
        token: world.owner.token,
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
          entityId: world.projectId,
          organizationId: world.orgId,
          projectId: world.projectId,
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
      const [{ n }] = await world.ctx.db.query(
        `SELECT count(*)::int AS n FROM sentinel_pass WHERE row_to_json(sentinel_pass)::text LIKE '%' || $1 || '%'`,
        [firstSecret.slice(3)],
      );
      expect(n).toBe(0);
      expect(await passEvents(passId)).toEqual([
        {
          passId,
          organizationId: Number(world.orgId),
          projectId: Number(world.projectId),
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
      const one = await world.ctx.request('GET', `${world.S}/${passId}`, {
        token: world.owner.token,
      });
      expect(one.status).toBe(200);
      expect(one.body.data.id).toBe(passId);
      expect(one.body.meta).toBeUndefined();
      const list = await world.ctx.request('GET', world.S, { token: world.owner.token });
      for (const body of [one.body, list.body]) {
        const text = JSON.stringify(body);
        expect(text).not.toContain(firstSecret);
        expect(text).not.toContain(hashSentinelKey(firstSecret));
      }
    });

    it('updates the fields sent (PUT), keeps the others and the key, announces version 2', async () => {
      const res = await world.ctx.request('PUT', `${world.S}/${passId}`, {
        token: world.admin.token,
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
      const res = await world.ctx.request('POST', `${world.S}/${passId}/rotate_key`, {
        token: world.owner.token,
      });
      expect(res.status).toBe(200);
      const secret = res.body.meta.secret;
      expect(secret).toMatch(/^sp_[A-Za-z0-9_-]{43}$/);
      expect(secret).not.toBe(firstSecret);
      const lastRotated = res.body.data.attributes.metadata.lastRotated;
      expect(Date.now() - Date.parse(lastRotated)).toBeLessThan(60_000);
      expect(await storedHash(passId)).toBe(hashSentinelKey(secret));
      const [{ n }] = await world.ctx.db.query(
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
      const again = await world.ctx.request('GET', `${world.S}/${passId}`, {
        token: world.viewer.token,
      });
      expect(again.body.data.attributes.metadata.lastRotated).toBe(lastRotated);
    });

    it('revokes (active false, record kept), refuses a second revoke and a rotation while revoked (409), activates again', async () => {
      const revoked = await world.ctx.request('POST', `${world.S}/${passId}/revoke`, {
        token: world.owner.token,
      });
      expect(revoked.status).toBe(200);
      expect(revoked.body.data.attributes.active).toBe(false);
      expect((await passEvents(passId)).at(-1)).toMatchObject({
        version: 4,
        credentialEpoch: 2,
        active: false,
      });

      const mark = await world.ctx.outboxMark();
      const hash = await storedHash(passId);
      const twice = await world.ctx.request('POST', `${world.S}/${passId}/revoke`, {
        token: world.owner.token,
      });
      expect(twice.status).toBe(409);
      expect(twice.body.errors[0].code).toBe('SENTINEL_PASS_ALREADY_REVOKED');
      const rotate = await world.ctx.request('POST', `${world.S}/${passId}/rotate_key`, {
        token: world.owner.token,
      });
      expect(rotate.status).toBe(409);
      expect(rotate.body.errors[0].code).toBe('SENTINEL_PASS_REVOKED');
      expect(await storedHash(passId)).toBe(hash);
      expect(await world.ctx.outbox(undefined, mark)).toEqual([]);

      const listed = await world.ctx.request('GET', `${world.S}?active=false`, {
        token: world.member.token,
      });
      expect(listed.body.data.map((p: any) => p.id)).toEqual([passId]);

      const activated = await world.ctx.request('POST', `${world.S}/${passId}/activate`, {
        token: world.admin.token,
      });
      expect(activated.status).toBe(200);
      expect(activated.body.data.attributes.active).toBe(true);
      expect((await passEvents(passId)).at(-1)).toMatchObject({
        version: 5,
        credentialEpoch: 2,
        active: true,
      });
      const again = await world.ctx.request('POST', `${world.S}/${passId}/activate`, {
        token: world.admin.token,
      });
      expect(again.status).toBe(409);
      expect(again.body.errors[0].code).toBe('SENTINEL_PASS_ALREADY_ACTIVE');
    });

    it('deletes permanently (204): announced deleted with keyHash null and version 6, tools_count back down', async () => {
      const before = await toolsCount();
      const res = await world.ctx.request('DELETE', `${world.S}/${passId}`, {
        token: world.owner.token,
      });
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
        const gone = await world.ctx.request(method, `${world.S}/${passId}${suffix}`, {
          token: world.owner.token,
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
      await world.ctx.db.query(
        `UPDATE sentinel_pass SET expires_at = now() - interval '1 hour' WHERE id = $1`,
        [pass.id],
      );
      const res = await world.ctx.request('GET', `${world.S}/${pass.id}`, {
        token: world.viewer.token,
      });
      expect(res.body.data.attributes).toMatchObject({ active: true, expired: true });
      const fresh = await world.ctx.request('GET', world.S, { token: world.viewer.token });
      expect(fresh.body.data.find((p: any) => p.id === pass.id).attributes.expired).toBe(true);
      await world.ctx.request('DELETE', `${world.S}/${pass.id}`, { token: world.owner.token });
    });
  });

  describe('project deletion', () => {
    it('announces every pass of a deleted project as deleted', async () => {
      const doomed = await world.ctx.newProject(world.orgId, world.owner, 'Doomed');
      const path = `/organizations/${world.orgId}/projects/${doomed}/sentinel_passes`;
      const a = await create({ title: 'one' }, world.owner, path);
      const b = await create({ title: 'two' }, world.owner, path);
      await world.ctx.request('POST', `${path}/${b.pass.id}/revoke`, { token: world.owner.token });
      const res = await world.ctx.request(
        'DELETE',
        `/organizations/${world.orgId}/projects/${doomed}`,
        {
          token: world.owner.token,
        },
      );
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
