import { waitFor } from '@wp/testing';
import {
  expectError,
  expectEtagOf,
  ISO,
  useConformanceWorld,
  TOKEN,
  UUID,
} from '../support/conformance.js';

/**
 * Contract conformance, exercised as a client that reads only the contract and
 * docs/architecture.md would: through the gateway (`/v1/api`, `Api-Key`), with the field names,
 * casing, wrappers, statuses, defaults, error bodies and pagination meta they give.
 * Sentinel Passes: docs/api.md § Sentinel Pass (unified asset format), docs/api.md § States and
 * transitions (Sentinel Pass rows), docs/api.md § Sentinel Passes, docs/api.md § Errors,
 * docs/api.md § Limits; the key exchange and usageCount; docs/architecture.md § Decisions where
 * the contract is silent (error body, statuses, ids, "Sentinel Pass key").
 * The platform, its users and organization: test/support/conformance.ts.
 */
describe('contract conformance: user settings, Sentinel Pass, agent activity', () => {
  const world = useConformanceWorld();

  const expectEtag = (path: string) => expectEtagOf(world.stack, world.token, path);

  describe('Sentinel Pass (org) and the agent (auth)', () => {
    let passId: string;
    let secret: string;
    const S = () =>
      `/v1/api/organizations/${world.orgId}/projects/${world.projectId}/sentinel_passes`;

    /** Every field the contract lists under "Sentinel Pass (unified asset format)". */
    function expectUnifiedAsset(pass: any) {
      expect(typeof pass.id).toBe('string');
      expect(pass.id).toMatch(UUID);
      expect(pass.type).toBe('studio_tool');
      const a = pass.attributes;
      expect(typeof a.title).toBe('string');
      expect(typeof a.description).toBe('string');
      expect(a.assetType).toBe('security');
      expect(typeof a.active).toBe('boolean');
      expect(Array.isArray(a.tags)).toBe(true);
      expect(Array.isArray(a.metadata.permissions)).toBe(true);
      expect(Array.isArray(a.metadata.allowedReferers)).toBe(true);
      expect(typeof a.metadata.credentialType).toBe('string');
      expect(Array.isArray(a.metadata.scopes)).toBe(true);
      expect(a.metadata.expiresAt === null || ISO.test(a.metadata.expiresAt)).toBe(true);
      expect(a.metadata.lastRotated === null || ISO.test(a.metadata.lastRotated)).toBe(true);
      expect(Number.isInteger(a.metadata.usageCount)).toBe(true);
      expect(a.createdAt).toMatch(ISO);
      expect(a.updatedAt).toMatch(ISO);
      expect(JSON.stringify(pass)).not.toMatch(/keyHash|sp_[A-Za-z0-9_-]{43}/);
    }

    /** A single pass is wrapped in `sentinelPass` (payload conventions) and in `data`. */
    function single(body: any) {
      expect(body.sentinelPass).toEqual(body.data);
      expectUnifiedAsset(body.sentinelPass);
      return body.sentinelPass;
    }

    it('POST S answers 201 with the unified asset, the contract defaults and the key once at meta.secret', async () => {
      const res = await world.stack.request('POST', S(), {
        token: world.token,
        body: { sentinelPass: { title: 'Reader bot', permissions: ['projects:read'] } },
      });
      expect(res.status).toBe(201);
      const pass = single(res.body);
      expect(pass.attributes).toMatchObject({
        title: 'Reader bot',
        description: '',
        assetType: 'security',
        active: true,
        tags: [],
        metadata: {
          permissions: ['projects:read'],
          allowedReferers: [],
          credentialType: 'api_key',
          scopes: [],
          expiresAt: null,
          lastRotated: null,
          usageCount: 0,
        },
      });
      expect(res.body.meta.secret).toMatch(TOKEN);
      passId = pass.id;
      secret = res.body.meta.secret;
    });

    it('POST S echoes every field sent; entityType/entityId default to the project', async () => {
      const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
      const res = await world.stack.request('POST', S(), {
        token: world.token,
        body: {
          sentinelPass: {
            title: 'Deploy bot',
            description: 'ships builds',
            permissions: ['projects:read', 'sentinel_passes:read'],
            allowedReferers: ['*.example.com'],
            credentialType: 'oauth_client',
            scopes: ['read', 'write'],
            expiresAt,
            tags: ['ci', 'prod'],
          },
        },
      });
      expect(res.status).toBe(201);
      const pass = single(res.body);
      expect(pass.attributes).toMatchObject({
        title: 'Deploy bot',
        description: 'ships builds',
        active: true,
        tags: ['ci', 'prod'],
        metadata: {
          permissions: ['projects:read', 'sentinel_passes:read'],
          allowedReferers: ['*.example.com'],
          credentialType: 'oauth_client',
          scopes: ['read', 'write'],
          expiresAt,
          lastRotated: null,
          usageCount: 0,
        },
      });
      expect(pass.attributes.entityType).toBe('project');
      expect(pass.attributes.entityId).toBe(world.projectId);
    });

    it('GET S lists passes in data with the contract filters; GET S/{id} answers the pass without its key', async () => {
      const list = await world.stack.request('GET', S(), { token: world.token });
      expect(list.status).toBe(200);
      expect(list.body.data).toHaveLength(2);
      list.body.data.forEach(expectUnifiedAsset);
      const ids = async (query: string) =>
        (await world.stack.request('GET', `${S()}${query}`, { token: world.token })).body.data.map(
          (p: any) => p.attributes.title,
        );
      expect(await ids('?credential_type=oauth_client')).toEqual(['Deploy bot']);
      expect(await ids('?tags=ci,prod')).toEqual(['Deploy bot']);
      expect(await ids('?active=true')).toHaveLength(2);
      expect(await ids('?active=false')).toEqual([]);
      expect(await ids('?search=reader')).toEqual(['Reader bot']);

      const one = await world.stack.request('GET', `${S()}/${passId}`, { token: world.token });
      expect(one.status).toBe(200);
      expect(single(one.body).id).toBe(passId);
      expect(one.body.meta?.secret).toBeUndefined();
      await expectEtag(`${S()}/${passId}`);

      const orgList = await world.stack.request(
        'GET',
        `/v1/api/organizations/${world.orgId}/sentinel_passes`,
        {
          token: world.token,
        },
      );
      expect(orgList.status).toBe(200);
      expect(orgList.body.data).toHaveLength(2);
    });

    it('PUT S/{id} answers 200 with the fields changed and a later updatedAt', async () => {
      const before = (await world.stack.request('GET', `${S()}/${passId}`, { token: world.token }))
        .body.data;
      const res = await world.stack.request('PUT', `${S()}/${passId}`, {
        token: world.token,
        body: { sentinelPass: { title: 'Reader bot v2', tags: ['ops'] } },
      });
      expect(res.status).toBe(200);
      const pass = single(res.body);
      expect(pass.attributes.title).toBe('Reader bot v2');
      expect(pass.attributes.tags).toEqual(['ops']);
      expect(pass.attributes.metadata.permissions).toEqual(['projects:read']);
      expect(Date.parse(pass.attributes.updatedAt)).toBeGreaterThanOrEqual(
        Date.parse(before.attributes.updatedAt),
      );
      expect(pass.attributes.createdAt).toBe(before.attributes.createdAt);
    });

    it('the agent exchanges the key (client_credentials) for a session-shaped answer; its requests count in usageCount', async () => {
      const res = await waitFor(
        async () => {
          const r = await world.stack.request('POST', '/v1/api/oauth/token', {
            body: { grant_type: 'client_credentials', client_id: passId, client_secret: secret },
          });
          return r.status === 200 && r;
        },
        { what: 'the exchange to succeed' },
      );
      expect(res.body.data.id).toBe(passId);
      expect(res.body.data.type).toBe('session');
      const attributes = res.body.data.attributes;
      expect(attributes.accessToken).toMatch(TOKEN);
      expect(typeof attributes.email).toBe('string');
      expect(typeof attributes.firstName).toBe('string');
      expect(typeof attributes.lastName).toBe('string');

      const project = await world.stack.request(
        'GET',
        `/v1/api/organizations/${world.orgId}/projects/${world.projectId}`,
        { token: attributes.accessToken },
      );
      expect(project.status).toBe(200);
      await waitFor(
        async () =>
          (await world.stack.request('GET', `${S()}/${passId}`, { token: world.token })).body.data
            .attributes.metadata.usageCount === 1,
        { what: 'usageCount 1', timeoutMs: 15_000 },
      );

      const refused = await world.stack.request('POST', '/v1/api/oauth/token', {
        body: { grant_type: 'client_credentials', client_id: passId, client_secret: 'sp_wrong' },
      });
      expectError(refused, 401);
    });

    it('rotate_key: 200, still active, a new key at meta.secret, lastRotated set; the old key stops working', async () => {
      const before = (await world.stack.request('GET', `${S()}/${passId}`, { token: world.token }))
        .body.data;
      const res = await world.stack.request('POST', `${S()}/${passId}/rotate_key`, {
        token: world.token,
      });
      expect(res.status).toBe(200);
      const pass = single(res.body);
      expect(Date.parse(pass.attributes.updatedAt)).toBeGreaterThan(
        Date.parse(before.attributes.updatedAt),
      );
      expect(pass.attributes.createdAt).toBe(before.attributes.createdAt);
      expect(pass.attributes.active).toBe(true);
      expect(pass.attributes.metadata.lastRotated).toMatch(ISO);
      expect(Math.abs(Date.parse(pass.attributes.metadata.lastRotated) - Date.now())).toBeLessThan(
        60_000,
      );
      expect(pass.attributes.metadata.usageCount).toBe(1);
      expect(res.body.meta.secret).toMatch(TOKEN);
      expect(res.body.meta.secret).not.toBe(secret);
      await waitFor(
        async () =>
          (
            await world.stack.request('POST', '/v1/api/oauth/token', {
              body: { grant_type: 'client_credentials', client_id: passId, client_secret: secret },
            })
          ).status === 401,
        { what: 'the old key refused' },
      );
      secret = res.body.meta.secret;
    });

    it('revoke → active false (record kept); activate → active true; both 200 with the pass', async () => {
      const revoked = await world.stack.request('POST', `${S()}/${passId}/revoke`, {
        token: world.token,
      });
      expect(revoked.status).toBe(200);
      expect(single(revoked.body).attributes.active).toBe(false);
      const kept = await world.stack.request('GET', `${S()}/${passId}`, { token: world.token });
      expect(kept.status).toBe(200);
      expect(kept.body.data.attributes.active).toBe(false);
      const activated = await world.stack.request('POST', `${S()}/${passId}/activate`, {
        token: world.token,
      });
      expect(activated.status).toBe(200);
      expect(single(activated.body).attributes.active).toBe(true);
      // state changes keep the usage count and the rotation time
      expect(activated.body.data.attributes.metadata.usageCount).toBe(1);
      expect(activated.body.data.attributes.metadata.lastRotated).toBe(
        revoked.body.data.attributes.metadata.lastRotated,
      );
      expect(revoked.body.data.attributes.metadata.lastRotated).not.toBeNull();
    });

    it('refusals: 400 without title, 401 without token, 404 for another tenant, 404 after DELETE (204)', async () => {
      for (const expiresAt of [
        '2030-W01',
        '2030-001',
        '20300101T000000Z',
        '2030-02-30',
        'tomorrow',
      ]) {
        const res = await world.stack.request('POST', S(), {
          token: world.token,
          body: { sentinelPass: { title: 'Odd date', expiresAt } },
        });
        expectError(res, 400);
        expect(res.body.errors[0].source.pointer).toBe('/sentinelPass/expiresAt');
      }
      const noTitle = await world.stack.request('POST', S(), {
        token: world.token,
        body: { sentinelPass: {} },
      });
      expectError(noTitle, 400);
      expect(noTitle.body.errors[0].source.pointer).toBe('/sentinelPass/title');
      expectError(await world.stack.request('GET', S()), 401);
      expectError(await world.stack.request('GET', S(), { token: world.strangerToken }), 404);
      expectError(
        await world.stack.request('GET', `${S()}/${passId}`, { token: world.strangerToken }),
        404,
      );
      const deleted = await world.stack.request('DELETE', `${S()}/${passId}`, {
        token: world.token,
      });
      expect(deleted.status).toBe(204);
      expectError(
        await world.stack.request('GET', `${S()}/${passId}`, { token: world.token }),
        404,
      );
    });
  });
});
