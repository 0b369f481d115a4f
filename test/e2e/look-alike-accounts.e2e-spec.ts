import { SmtpSink } from '@wp/testing';
import { PlatformStack } from '../support/stack.js';

/**
 * Look-alike accounts (docs/auth.md § Usernames), through the gateway: every spelling of an
 * existing username — fullwidth letters, case, an upper-case or fullwidth domain, decomposed
 * accents — is the same account (409 at registration, the same account at login, reset,
 * validation, org's add_user and invitations, and one rate-limit budget), while an address with
 * invisible characters or letters of mixed scripts is refused outright (400).
 */
describe('look-alike accounts', () => {
  let smtp: SmtpSink;
  let stack: PlatformStack;
  let ada: { id: string; token: string };
  let organizationId: string;

  const FULLWIDTH = '\uff21\uff24\uff21@example.com'; // ＡＤＡ@example.com
  const SPELLINGS = [
    ['fullwidth letters', '\uff41da@example.com'], // ａda@example.com
    ['upper case', 'ADA@EXAMPLE.COM'],
    ['a fullwidth domain', 'ada@\uff45xample.com'], // ada@ｅxample.com
    ['a fullwidth at sign', 'ada\uff20example.com'],
    ['fullwidth capitals', FULLWIDTH],
  ];
  const PASSWORD = 'a long password';

  const register = (username: string, method?: 'phone') =>
    stack.request('POST', '/v1/api/users', {
      body: { username, password: PASSWORD, ...(method ? { method } : {}) },
    });
  const login = (username: string, password = PASSWORD) =>
    stack.request('POST', '/v1/api/oauth/token', { body: { username, password } });

  beforeAll(async () => {
    smtp = await SmtpSink.start();
    stack = await PlatformStack.start({
      SMTP_URL: smtp.url,
      PUBLIC_WEB_URL: 'https://app.example.com',
      // Every spelling counts on one registration budget (5 per hour by default): the tests
      // register more spellings of one address than that.
      REGISTRATION_RATE_LIMIT: '50',
    });
    const res = await register('ada@example.com');
    expect(res.status).toBe(200);
    ada = { id: res.body.data.id, token: res.body.data.attributes.accessToken };
    const org = await stack.request('POST', '/v1/api/organizations', {
      token: ada.token,
      body: { data: { type: 'organization', attributes: { name: 'Look-alikes' } } },
    });
    organizationId = org.body.data.id;
  });
  afterAll(async () => {
    await stack?.close();
    await smtp?.close();
  });

  describe('registration', () => {
    it.each(SPELLINGS)(
      'refuses %s as the existing account (409 USERNAME_TAKEN)',
      async (_, name) => {
        const res = await register(name);
        expect(res.status).toBe(409);
        expect(res.body.errors[0].code).toBe('USERNAME_TAKEN');
      },
    );

    it.each([
      ['a Cyrillic а', '\u0430da@example.com', /scripts/],
      ['a zero-width space', 'ada\u200b@example.com', /invisible/],
      ['a right-to-left override', 'ada\u202e@example.com', /invisible/],
      ['a Cyrillic е in the domain', 'ada@\u0435xample.com', /domain/],
    ])('refuses %s outright (400 INVALID_USERNAME)', async (_, name, detail) => {
      const res = await register(name);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].code).toBe('INVALID_USERNAME');
      expect(res.body.errors[0].detail).toMatch(detail);
    });

    it('keeps the address as typed, and refuses the other Unicode form of it', async () => {
      const nfc = await register('Jos\u00e9@example.com');
      expect(nfc.status).toBe(200);
      expect(nfc.body.data.attributes.email).toBe('Jos\u00e9@example.com');
      const nfd = await register('jose\u0301@example.com');
      expect(nfd.status).toBe(409);
    });

    it('takes a phone number in any spelling as one account', async () => {
      expect((await register('+1 415 555 0142', 'phone')).status).toBe(201);
      const fullwidth = '\uff0b\uff11\uff14\uff11\uff15\uff15\uff15\uff15\uff10\uff11\uff14\uff12';
      expect((await register(fullwidth, 'phone')).status).toBe(409);
      // The pending account is found by login in another spelling (403 with its id).
      const res = await login('+1 (415) 555-0142');
      expect(res.status).toBe(403);
      expect(res.body.errors[0].code).toBe('ACTIVATION_REQUIRED');
    });
  });

  describe('the other paths that look a user up', () => {
    it.each(SPELLINGS)('logs in with %s to the same account', async (_, name) => {
      const res = await login(name);
      expect(res.status).toBe(200);
      expect(res.body.data.id).toBe(ada.id);
      expect(res.body.data.attributes.email).toBe('ada@example.com');
    });

    it('logs in with the decomposed spelling of an accented address', async () => {
      const res = await login('jose\u0301@EXAMPLE.com');
      expect(res.status).toBe(200);
      expect(res.body.data.attributes.email).toBe('Jos\u00e9@example.com');
    });

    it('answers the validation endpoint by key, and calls look-alikes invalid', async () => {
      const check = async (email: string) =>
        (
          await stack.request(
            'GET',
            `/v1/api/users/validate/email?email=${encodeURIComponent(email)}`,
          )
        ).body;
      expect(await check(FULLWIDTH)).toEqual({ valid: true, exists: true });
      expect(await check('ada@\uff45xample.com')).toEqual({ valid: true, exists: true });
      expect(await check('\u0430da@example.com')).toEqual({ valid: false, exists: false });
      expect(await check('ada\u200b@example.com')).toEqual({ valid: false, exists: false });
    });

    it('sends the reset of any spelling to the account, and resets with it', async () => {
      const requested = await stack.request('POST', '/v1/api/users/password/reset_request', {
        body: { email: 'ADA@\uff45xample.com' },
      });
      expect(requested.status).toBe(200);
      const mail = await smtp.nextMail('ada@example.com', { timeoutMs: 20_000 });
      const token = mail.headers.get('x-reset-token')!;
      expect(mail.text).toContain('email=ada%40example.com');
      const reset = await stack.request('POST', '/v1/api/users/password/reset', {
        body: { email: '\uff41da@example.com', reset_token: token, new_password: PASSWORD },
      });
      expect(reset.status).toBe(200);
      const res = await login('ada@example.com');
      expect(res.status).toBe(200);
      ada.token = res.body.data.attributes.accessToken;
    });

    it('counts failed logins of every spelling on one budget (LOGIN_RATE_LIMIT 5)', async () => {
      expect((await register('grace@example.com')).status).toBe(200);
      const spellings = [
        'grace@example.com',
        'GRACE@example.com',
        '\uff47race@example.com',
        'grace@\uff45xample.com',
        'grace\u200b@example.com',
      ];
      for (const name of spellings) expect((await login(name, 'wrong password')).status).toBe(401);
      const sixth = await login('Grace@Example.com', 'wrong password');
      expect(sixth.status).toBe(429);
      expect(sixth.body.errors[0].meta.limit).toBe('login');
    });
  });

  describe('org: add_user and invitations', () => {
    const invite = (email: string) =>
      stack.request('POST', `/v1/api/organizations/${organizationId}/invitations`, {
        token: ada.token,
        body: { data: { type: 'membershipInvitation', attributes: { email, orgRole: 'member' } } },
      });

    it('redirects an invitation to a spelling of an existing account to add_user (422)', async () => {
      const res = await invite('\uff27\uff32\uff21\uff23\uff25@example.com'); // ＧＲＡＣＥ@example.com
      expect(res.status).toBe(422);
    });

    it('adds the existing account for a fullwidth spelling of its address', async () => {
      const res = await stack.request('POST', `/v1/api/organizations/${organizationId}/add_user`, {
        token: ada.token,
        body: {
          data: { type: 'users', attributes: { email: 'GRACE@\uff45xample.com', role: 'MEMBER' } },
        },
      });
      expect(res.status).toBe(201);
      const members = await stack.request('GET', `/v1/api/organizations/${organizationId}/users`, {
        token: ada.token,
      });
      const emails = JSON.stringify(members.body);
      expect(emails).toContain('grace@example.com');
    });

    it('shows an invitation to ＨＥＤＹ@ｅxample.com to the account hedy@example.com', async () => {
      const created = await invite('\uff28\uff25\uff24\uff39@\uff45xample.com');
      expect(created.status).toBe(201);
      expect(created.body.data.attributes.email).toBe('\uff28\uff25\uff24\uff39@\uff45xample.com');
      // A second spelling of the same address is the same invitee.
      const again = await invite('hedy@EXAMPLE.com');
      expect(again.status).toBe(409);
      expect(again.body.errors[0].code).toBe('INVITATION_ALREADY_PENDING');

      const hedy = await register('hedy@example.com');
      expect(hedy.status).toBe(200);
      const token = hedy.body.data.attributes.accessToken;
      const pending = await stack.request('GET', '/v1/api/me/pending_invitations', { token });
      expect(pending.status).toBe(200);
      expect(pending.body.data.map((i: { id: string }) => i.id)).toEqual([created.body.data.id]);
      const accepted = await stack.request(
        'POST',
        `/v1/api/me/accept_invitation/${created.body.data.id}`,
        { token },
      );
      expect(accepted.status).toBe(200);
    });

    it('refuses to invite a look-alike address (400)', async () => {
      for (const email of ['\u0430da@example.com', 'ada\u200b@example.com']) {
        const res = await invite(email);
        expect(res.status).toBe(400);
        expect(res.body.errors[0].source.pointer).toBe('/data/attributes/email');
      }
    });
  });
});
