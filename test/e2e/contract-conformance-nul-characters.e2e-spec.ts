import { expectError, useConformanceWorld } from '../support/conformance.js';

/**
 * Contract conformance, exercised as a client that reads only the contract and
 * docs/architecture.md would: through the gateway (`/v1/api`, `Api-Key`), with the field names,
 * casing, wrappers, statuses, defaults, error bodies and pagination meta they give.
 * NUL characters (docs/decisions.md § Contract readings to confirm): a U+0000 in a body string or
 * key, or in a query parameter, of user settings, Sentinel Passes, organizations and the activity
 * log is a 400 naming where (docs/api.md § Errors), never a 500, and nothing is stored.
 * The platform, its users and organization: test/support/conformance.ts.
 */
describe('contract conformance: user settings, Sentinel Pass, agent activity', () => {
  const world = useConformanceWorld();

  it('a NUL character (U+0000) anywhere in a request is a 400 naming where, never a 500', async () => {
    const S = `/v1/api/organizations/${world.orgId}/projects/${world.projectId}/sentinel_passes`;
    const bodies: [string, string, unknown, string][] = [
      ['PATCH', '/v1/api/user_settings/onboarding/nul_step', { value: 'a\u0000b' }, '/value'],
      [
        'PATCH',
        '/v1/api/user_settings/onboarding/nul_step',
        { value: { 'k\u0000': 1 } },
        '/value/k\u0000',
      ],
      ['POST', S, { sentinelPass: { title: 'a\u0000' } }, '/sentinelPass/title'],
      [
        'POST',
        S,
        { sentinelPass: { title: 'ok', tags: ['ok', 't\u0000'] } },
        '/sentinelPass/tags/1',
      ],
      [
        'PATCH',
        `/v1/api/organizations/${world.orgId}`,
        { data: { attributes: { name: 'a\u0000' } } },
        '/data/attributes/name',
      ],
    ];
    for (const [method, path, body, pointer] of bodies) {
      const res = await world.stack.request(method, path, { token: world.token, body });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.body.errors[0].source).toEqual({ pointer });
    }
    for (const [path, parameter] of [
      [`${S}?search=%00`, 'search'],
      [`${S}?tags=a,%00`, 'tags'],
      [
        `/v1/api/oauth/agent/activity/logs?agent_user_id=${world.projectId}&endpoint=%00`,
        'endpoint',
      ],
    ]) {
      const res = await world.stack.request('GET', path, { token: world.token });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.body.errors[0].source).toEqual({ parameter });
    }
    const settings = await world.stack.request('GET', '/v1/api/user_settings', {
      token: world.token,
    });
    expect(settings.body.onboarding.nul_step).toBeUndefined();
  });
});
