import { expectError, expectEtagOf, useConformanceWorld } from '../support/conformance.js';

/**
 * Contract conformance, exercised as a client that reads only the contract and
 * docs/architecture.md would: through the gateway (`/v1/api`, `Api-Key`), with the field names,
 * casing, wrappers, statuses, defaults, error bodies and pagination meta they give.
 * User settings: docs/api.md § User settings object, docs/api.md § User settings, docs/api.md §
 * Errors, docs/api.md § Authentication; the ISO 8601 forms of the project list and API keys;
 * docs/architecture.md § Decisions where the contract is silent (error body, statuses, ids).
 * The platform, its users and organization: test/support/conformance.ts.
 */
describe('contract conformance: user settings, Sentinel Pass, agent activity', () => {
  const world = useConformanceWorld();

  const expectEtag = (path: string) => expectEtagOf(world.stack, world.token, path);

  describe('user settings ({org_url}/user_settings)', () => {
    it('GET answers the settings object at the top level with the contract fields and types; no dashboard unless asked', async () => {
      const res = await world.stack.request('GET', '/v1/api/user_settings', { token: world.token });
      expect(res.status).toBe(200);
      const body = res.body;
      expect(body.data).toBeUndefined();
      expect(body.theme).toBe('light');
      expect(typeof body.language).toBe('string');
      expect(body.sidebar_open).toBe(true);
      expect('dashboard' in body).toBe(false);
      expect(body.current_organization_id ?? null).toBeNull();
      expect(body.current_project_id ?? null).toBeNull();
      expect(body.sidebar.organizations).toHaveLength(1);
      const [org] = body.sidebar.organizations;
      expect(org).toEqual({
        id: Number(world.orgId),
        name: 'Conformance Org',
        currentUserRole: 'OWNER',
        meta: { can: { organization: { manageSettings: true }, project: { create: true } } },
        pinned_items: [],
        projects: expect.any(Array),
      });
      expect(Number.isInteger(org.id)).toBe(true);
      expect(org.projects).toHaveLength(2);
      for (const p of org.projects) {
        expect(Object.keys(p).sort()).toEqual(['id', 'is_default', 'name']);
        expect(Number.isInteger(p.id)).toBe(true);
        expect(typeof p.is_default).toBe('boolean');
      }
      expect(org.projects.find((p: any) => p.is_default).id).toBe(Number(world.defaultProjectId));

      const withDashboard = await world.stack.request(
        'GET',
        '/v1/api/user_settings?includes=dashboard',
        {
          token: world.token,
        },
      );
      expect(withDashboard.status).toBe(200);
      expect(typeof withDashboard.body.dashboard).toBe('object');
      expect(withDashboard.body.dashboard).not.toBeNull();
    });

    it('the project list and project API keys refuse ISO 8601 forms they cannot read with a 400 (never a 500); a date filters', async () => {
      const P = `/v1/api/organizations/${world.orgId}/projects`;
      for (const query of [
        'created_after=2026-W47',
        'created_before=20261123',
        'created_after=2026-001',
      ]) {
        const res = await world.stack.request('GET', `${P}?${query}`, { token: world.token });
        expectError(res, 400);
        expect(res.body.errors[0].source.parameter).toBe(query.split('=')[0]);
      }
      await expectEtag(`/v1/api/organizations/${world.orgId}`);
      await expectEtag(`${P}/${world.projectId}`);
      const badKey = await world.stack.request('POST', `${P}/${world.projectId}/api_keys`, {
        token: world.token,
        body: { data: { attributes: { note: 'odd date', expires_at: '2030-W01' } } },
      });
      expectError(badKey, 400);
      expect(badKey.body.errors[0].source.pointer).toBe('/data/attributes/expires_at');
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      const before = await world.stack.request('GET', `${P}?created_before=${tomorrow}`, {
        token: world.token,
      });
      expect(before.body.data).toHaveLength(2);
      const after = await world.stack.request('GET', `${P}?created_after=${tomorrow}T00:00:00`, {
        token: world.token,
      });
      expect(after.body.data).toEqual([]);
    });

    it('PATCH answers 200; values are kept per client (default web); ids are answered as integers', async () => {
      const patched = await world.stack.request('PATCH', '/v1/api/user_settings', {
        token: world.token,
        body: {
          theme: 'dark',
          language: 'pt-BR',
          sidebar_open: false,
          current_organization_id: Number(world.orgId),
          current_project_id: Number(world.projectId),
        },
      });
      expect(patched.status).toBe(200);
      const web = await world.stack.request('GET', '/v1/api/user_settings?client=web', {
        token: world.token,
      });
      expect(web.body).toMatchObject({
        theme: 'dark',
        language: 'pt-BR',
        sidebar_open: false,
        current_organization_id: Number(world.orgId),
        current_project_id: Number(world.projectId),
      });
      const etag = await expectEtag('/v1/api/user_settings');
      await world.stack.request('PATCH', '/v1/api/user_settings', {
        token: world.token,
        body: { theme: 'light' },
      });
      expect(await expectEtag('/v1/api/user_settings')).not.toBe(etag);
      await world.stack.request('PATCH', '/v1/api/user_settings', {
        token: world.token,
        body: { theme: 'dark' },
      });
      const ios = await world.stack.request('GET', '/v1/api/user_settings?client=ios', {
        token: world.token,
      });
      expect(ios.body.theme).toBe('light');
      expect(ios.body.sidebar_open).toBe(true);
    });

    it('pinned projects: PATCH with setting_key=sidebar answers 200; pinned_items keep the array order as integer positions, on every client', async () => {
      const res = await world.stack.request('PATCH', '/v1/api/user_settings', {
        token: world.token,
        body: {
          setting_key: 'sidebar',
          organization_id: Number(world.orgId),
          pinned_project_ids: [Number(world.projectId), Number(world.defaultProjectId)],
        },
      });
      expect(res.status).toBe(200);
      for (const client of ['web', 'android']) {
        const got = await world.stack.request('GET', `/v1/api/user_settings?client=${client}`, {
          token: world.token,
        });
        expect(got.body.sidebar.organizations[0].pinned_items).toEqual([
          { type: 'project', id: Number(world.projectId), name: 'Agents', position: 0 },
          {
            type: 'project',
            id: Number(world.defaultProjectId),
            name: expect.any(String),
            position: 1,
          },
        ]);
      }
    });

    it('onboarding: PATCH /user_settings/onboarding/{stepId} answers 200; value defaults to true', async () => {
      const empty = await world.stack.request(
        'PATCH',
        '/v1/api/user_settings/onboarding/sentinel_pass_discovered',
        { token: world.token, body: {} },
      );
      expect(empty.status).toBe(200);
      const hidden = await world.stack.request(
        'PATCH',
        '/v1/api/user_settings/onboarding/is_hidden',
        {
          token: world.token,
          body: { value: false },
        },
      );
      expect(hidden.status).toBe(200);
      const got = await world.stack.request('GET', '/v1/api/user_settings', { token: world.token });
      expect(got.body.onboarding).toEqual({ sentinel_pass_discovered: true, is_hidden: false });
    });

    it('refusals use the JSON:API error body: 400 bad value, 401 without token, 403 without Api-Key, 422 for an organization the user is not in', async () => {
      expectError(
        await world.stack.request('PATCH', '/v1/api/user_settings', {
          token: world.token,
          body: { theme: 'blue' },
        }),
        400,
      );
      expectError(await world.stack.request('GET', '/v1/api/user_settings'), 401);
      expectError(
        await world.stack.request('GET', '/v1/api/user_settings', {
          token: world.token,
          headers: { 'api-key': 'not-a-key' },
        }),
        403,
      );
      expectError(
        await world.stack.request('PATCH', '/v1/api/user_settings', {
          token: world.strangerToken,
          body: { current_organization_id: Number(world.orgId) },
        }),
        422,
      );
      expectError(
        await world.stack.request('GET', '/v1/api/user_settings', { token: 'bad token!' }),
        401,
      );
    });
  });
});
