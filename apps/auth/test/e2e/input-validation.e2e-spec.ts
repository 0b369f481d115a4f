import { startAuthTestApp, type AuthTestContext } from '../support/auth-test-app.js';
import { countRows, registerActive } from '../support/flows.js';

/**
 * docs/architecture.md § Decisions where the contract is silent: every body, query and path
 * parameter is validated; a failure is a 400 JSON:API `VALIDATION_FAILED` naming the field, never a
 * 500, and writes nothing.
 */
describe('auth: input validation of every field (400, nothing written)', () => {
  let ctx: AuthTestContext;
  let bearer: Record<string, string>;
  let pendingUserId: string;

  const TABLES = [
    'app_user',
    'activation_code',
    'refresh_token_family',
    'refresh_token',
    'password_reset_token',
    'outbox_message',
  ];
  const snapshot = async () =>
    Object.fromEntries(
      await Promise.all(TABLES.map(async (t) => [t, await countRows(ctx, t)] as const)),
    );

  beforeAll(async () => {
    ctx = await startAuthTestApp({ AUTH_EMAIL_ACTIVATION_REQUIRED: 'false' });
    bearer = ctx.bearer((await registerActive(ctx)).accessToken);
    const pending = await ctx.post('/v1/api/users', {
      username: '+14155550199',
      password: 'correct horse battery',
      method: 'phone',
    });
    pendingUserId = pending.json().user_id;
  });
  afterAll(() => ctx.close());

  const long = (n: number) => 'x'.repeat(n);
  const longEmail = `${long(250)}@example.com`;

  interface Case {
    name: string;
    url: string;
    valid: Record<string, unknown>;
    field: string;
    bad: unknown[];
    bearer?: boolean;
  }

  const cases = (): Case[] => [
    {
      name: 'POST /users',
      url: '/v1/api/users',
      valid: { username: 'valid@example.com', password: 'correct horse battery' },
      field: 'username',
      bad: [undefined, 42, true, ['a@b.co'], { a: 1 }, '', longEmail],
    },
    {
      name: 'POST /users',
      url: '/v1/api/users',
      valid: { username: 'valid@example.com', password: 'correct horse battery' },
      field: 'password',
      bad: [undefined, 12345678, null, 'short7!', long(129)],
    },
    {
      name: 'POST /users',
      url: '/v1/api/users',
      valid: { username: 'valid@example.com', password: 'correct horse battery' },
      field: 'method',
      bad: ['sms', 1, '', long(300)],
    },
    {
      name: 'POST /oauth/token',
      url: '/v1/api/oauth/token',
      valid: { username: 'valid@example.com', password: 'correct horse battery' },
      field: 'username',
      bad: [undefined, 7, '', longEmail],
    },
    {
      name: 'POST /oauth/token',
      url: '/v1/api/oauth/token',
      valid: { username: 'valid@example.com', password: 'correct horse battery' },
      field: 'password',
      bad: [undefined, 7, '', long(129)],
    },
    {
      name: 'POST /oauth/token',
      url: '/v1/api/oauth/token',
      valid: { username: 'valid@example.com', password: 'correct horse battery' },
      field: 'grant_type',
      bad: [5, long(65)],
    },
    {
      name: 'POST /oauth/token/refresh',
      url: '/v1/api/oauth/token/refresh',
      valid: { refresh_token: 'rt_abc' },
      field: 'refresh_token',
      bad: [undefined, 1, '', long(513)],
    },
    {
      name: 'POST /users/{id}/activate/phone',
      url: '', // set in the test (needs the pending user id)
      valid: { code: '123456' },
      field: 'code',
      bad: [undefined, 123456, '12345', '1234567', long(300)],
    },
    {
      name: 'POST /users/password/reset_request',
      url: '/v1/api/users/password/reset_request',
      valid: { email: 'valid@example.com' },
      field: 'email',
      bad: [undefined, 1, '', longEmail],
    },
    ...['email', 'new_password', 'reset_token'].map((field) => ({
      name: 'POST /users/password/reset',
      url: '/v1/api/users/password/reset',
      valid: {
        email: 'valid@example.com',
        new_password: 'a brand new secret',
        reset_token: 'prt_abc',
      },
      field,
      bad: [
        undefined,
        99,
        field === 'new_password' ? 'short' : '',
        field === 'email' ? longEmail : long(field === 'new_password' ? 129 : 257),
      ],
    })),
    {
      name: 'POST /users/password/change',
      url: '/v1/api/users/password/change',
      valid: { new_password: 'a brand new secret' },
      field: 'new_password',
      bad: [undefined, 12345678, 'short', long(129)],
      bearer: true,
    },
    {
      name: 'POST /users/password/change',
      url: '/v1/api/users/password/change',
      valid: { new_password: 'a brand new secret', current_password: 'whatever it is' },
      field: 'current_password',
      bad: [12345678, '', long(129)],
      bearer: true,
    },
  ];

  it('rejects every missing, mistyped or too long body field with 400 pointing at it, and writes nothing', async () => {
    const before = await snapshot();
    let checked = 0;
    for (const c of cases()) {
      const url = c.url || `/v1/api/users/${pendingUserId}/activate/phone`;
      for (const value of c.bad) {
        const payload: Record<string, unknown> = { ...c.valid };
        if (value === undefined) delete payload[c.field];
        else payload[c.field] = value;
        const res = await ctx.post(url, payload, c.bearer ? bearer : {});
        const label = `${c.name} ${c.field}=${JSON.stringify(value)?.slice(0, 20)}`;
        expect({ label, status: res.statusCode }).toEqual({ label, status: 400 });
        const errors = res.json().errors as { code: string; source?: { pointer?: string } }[];
        expect({ label, pointers: errors.map((e) => e.source?.pointer) }).toEqual({
          label,
          pointers: expect.arrayContaining([`/${c.field}`]),
        });
        expect(errors.every((e) => e.code === 'VALIDATION_FAILED')).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(await snapshot()).toEqual(before);
  });

  it('rejects a passkey credential without its response (or with a non-object one) with 400 at /credential/response', async () => {
    const before = await snapshot();
    const credential = { id: 'AAAA', rawId: 'AAAA', type: 'public-key' };
    for (const response of [undefined, null, 'x', 42, ['a']]) {
      const body = {
        credential: response === undefined ? credential : { ...credential, response },
      };
      for (const [url, auth] of [
        ['/v1/api/oauth/token/passkey', {}],
        ['/v1/api/users/me/passkeys', bearer],
      ] as const) {
        const res = await ctx.post(url, body, auth);
        const label = `${url} response=${JSON.stringify(response)}`;
        expect({ label, status: res.statusCode }).toEqual({ label, status: 400 });
        expect(res.json().errors[0]).toMatchObject({
          code: 'VALIDATION_FAILED',
          source: { pointer: '/credential/response' },
        });
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('rejects bodies that are not JSON objects with 400 and writes nothing', async () => {
    const before = await snapshot();
    for (const url of [
      '/v1/api/users',
      '/v1/api/oauth/token',
      '/v1/api/oauth/token/refresh',
      '/v1/api/users/password/reset_request',
      '/v1/api/users/password/reset',
    ]) {
      for (const payload of ['[1,2]', '"text"', '42', 'null', '{"a":']) {
        const res = await ctx.app.inject({
          method: 'POST',
          url,
          payload,
          headers: { 'api-key': ctx.apiKey, 'content-type': 'application/json' },
        });
        expect({ url, payload, status: res.statusCode }).toEqual({ url, payload, status: 400 });
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('rejects an invalid username format with 400 INVALID_USERNAME and writes nothing', async () => {
    const before = await snapshot();
    for (const body of [
      { username: 'not-an-email', password: 'correct horse battery' },
      { username: 'a@b', password: 'correct horse battery' },
      { username: '4155550123', password: 'correct horse battery', method: 'phone' },
      { username: '+1 nope', password: 'correct horse battery', method: 'phone' },
      { username: '+14155550123', password: 'correct horse battery', method: 'email' },
    ]) {
      const res = await ctx.post('/v1/api/users', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[0]).toMatchObject({
        code: 'INVALID_USERNAME',
        source: { pointer: '/username' },
      });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('validates query parameters of the validation endpoints (400 naming the parameter)', async () => {
    const bad: [string, string][] = [
      ['/v1/api/users/validate/email', 'email'],
      ['/v1/api/users/validate/email?email=', 'email'],
      [`/v1/api/users/validate/email?email=${longEmail}`, 'email'],
      ['/v1/api/users/validate/email?email=a%40b.co&email=c%40d.co', 'email'],
      ['/v1/api/users/validate/phone?countryCode=1', 'phoneNumber'],
      ['/v1/api/users/validate/phone?phoneNumber=4155550100', 'countryCode'],
      ['/v1/api/users/validate/phone?phoneNumber=4155550100&countryCode=abc', 'countryCode'],
      ['/v1/api/users/validate/phone?phoneNumber=4155550100&countryCode=12345', 'countryCode'],
      [`/v1/api/users/validate/phone?phoneNumber=${long(33)}&countryCode=1`, 'phoneNumber'],
    ];
    for (const [url, parameter] of bad) {
      const res = await ctx.get(url);
      expect({ url, status: res.statusCode }).toEqual({ url, status: 400 });
      expect(
        res.json().errors.map((e: { source: { parameter: string } }) => e.source.parameter),
      ).toContain(parameter);
    }
  });

  it('answers valid/exists for emails and phone numbers', async () => {
    const user = await registerActive(ctx);
    const check = async (url: string) => (await ctx.get(url)).json();
    expect(
      await check(
        `/v1/api/users/validate/email?email=${encodeURIComponent(user.email.toUpperCase())}`,
      ),
    ).toEqual({ valid: true, exists: true });
    expect(await check('/v1/api/users/validate/email?email=nobody%40example.com')).toEqual({
      valid: true,
      exists: false,
    });
    expect(await check('/v1/api/users/validate/email?email=not-an-email')).toEqual({
      valid: false,
      exists: false,
    });
    expect(
      await check('/v1/api/users/validate/phone?phoneNumber=4155550199&countryCode=1'),
    ).toEqual({ valid: true, exists: true });
    expect(
      await check('/v1/api/users/validate/phone?phoneNumber=4155550199&countryCode=%2B1'),
    ).toEqual({ valid: true, exists: true });
    expect(
      await check('/v1/api/users/validate/phone?phoneNumber=07911123456&countryCode=44'),
    ).toEqual({ valid: true, exists: false });
    expect(await check('/v1/api/users/validate/phone?phoneNumber=123&countryCode=44')).toEqual({
      valid: false,
      exists: false,
    });
  });

  it('refuses grant_type other than password, client_credentials and authorization_code with 400 UNSUPPORTED_GRANT_TYPE, and accepts grant_type=password', async () => {
    const user = await registerActive(ctx);
    const other = await ctx.post('/v1/api/oauth/token', {
      grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
      code: 'x',
    });
    expect(other.statusCode).toBe(400);
    expect(other.json().errors[0].code).toBe('UNSUPPORTED_GRANT_TYPE');
    // authorization_code (provider sign-in) needs its three fields.
    const incomplete = await ctx.post('/v1/api/oauth/token', {
      grant_type: 'authorization_code',
      code: 'x',
    });
    expect(incomplete.statusCode).toBe(400);
    expect(incomplete.json().errors[0].code).toBe('VALIDATION_FAILED');
    const password = await ctx.post('/v1/api/oauth/token', {
      grant_type: 'password',
      username: user.email,
      password: user.password,
    });
    expect(password.statusCode).toBe(200);
  });

  it('requires the Api-Key on every route of the section (403 API_KEY_MISSING), before anything else', async () => {
    const before = await snapshot();
    const routes: ['GET' | 'POST', string][] = [
      ['POST', '/v1/api/users'],
      ['POST', '/v1/api/oauth/token'],
      ['POST', '/v1/api/oauth/token/refresh'],
      ['GET', '/v1/api/oauth/token/revoke'],
      ['GET', '/v1/api/oauth/token/info'],
      ['POST', `/v1/api/users/${pendingUserId}/activate/email`],
      ['POST', `/v1/api/users/${pendingUserId}/activate/phone`],
      ['POST', `/v1/api/users/${pendingUserId}/resend_activation`],
      ['GET', '/v1/api/users/validate/email?email=a%40b.co'],
      ['GET', '/v1/api/users/validate/phone?phoneNumber=4155550100&countryCode=1'],
      ['POST', '/v1/api/users/password/reset_request'],
      ['POST', '/v1/api/users/password/reset'],
      ['POST', '/v1/api/users/password/change'],
    ];
    for (const [method, url] of routes) {
      const res = await ctx.app.inject({
        method,
        url,
        headers: bearer,
        payload: method === 'POST' ? {} : undefined,
      });
      expect({ url, status: res.statusCode }).toEqual({ url, status: 403 });
      expect(res.json().errors[0].code).toBe('API_KEY_MISSING');
    }
    expect(await snapshot()).toEqual(before);
  });

  it('ignores unknown body fields instead of storing them', async () => {
    const res = await ctx.post('/v1/api/users', {
      username: 'extra-fields@example.com',
      password: 'correct horse battery',
      status: 'active',
      firstName: 'Mallory',
      isAdmin: true,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.attributes.firstName).toBe('');
  });
});
