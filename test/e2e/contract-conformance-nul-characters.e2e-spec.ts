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

  it('an unpaired surrogate escape in a body string is a 400 naming where, never a 500', async () => {
    // Found by the fuzz test: `encodeURIComponent` of such an email threw (a 500).
    const cases: [string, unknown, string][] = [
      ['/v1/api/users/password/reset_request', { email: '\uD800' }, '/email'],
      [
        '/v1/api/users/password/reset',
        { email: 'x\uDC00@example.com', new_password: 'a long password', reset_token: 't' },
        '/email',
      ],
      ['/v1/api/users', { username: 'a@example.com', password: 'pw\uD83D long' }, '/password'],
    ];
    for (const [path, body, pointer] of cases) {
      const res = await world.stack.request('POST', path, { body });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.body.errors[0].source).toEqual({ pointer });
    }
    // A pair is text like any other.
    const paired = await world.stack.request('POST', '/v1/api/users/password/reset_request', {
      body: { email: 'smile\uD83D\uDE00@example.com' },
    });
    expect(paired.status).toBeLessThan(500);
    expect(paired.status).not.toBe(400);
  });
});
