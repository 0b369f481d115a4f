import { randomUUID } from 'node:crypto';
import { waitFor } from '@wp/testing';
import { OrgSsoState } from '../../src/modules/federation/org-sso-state.js';
import { startAuthTestApp, type AuthTestContext } from '../support/auth-test-app.js';
import {
  UUID,
  codeIn,
  countRows,
  newEmail,
  publishedEvents,
  registerAndActivate,
} from '../support/flows.js';

/**
 * docs/api.md § Accounts and sessions (`POST /users`, `/activate/email|phone`,
 * `/resend_activation`) and docs/api.md § States and transitions (Account rows), with
 * docs/architecture.md § Lifetimes and limits: codes expire after 15
 * min and lock after 5 wrong tries.
 */
describe('auth: activation by 6-digit code (email and phone)', () => {
  let ctx: AuthTestContext;

  beforeAll(async () => {
    ctx = await startAuthTestApp();
  });
  afterAll(() => ctx.close());

  async function register(username: string, method?: 'email' | 'phone') {
    const res = await ctx.post('/v1/api/users', {
      username,
      password: 'correct horse battery',
      ...(method ? { method } : {}),
    });
    expect(res.statusCode).toBe(201);
    return res.json<{ user_id: string }>().user_id;
  }

  it('registers by email with 201 and exactly the activation-required body of the contract', async () => {
    const email = newEmail('ada');
    const res = await ctx.post('/v1/api/users', {
      username: email,
      password: 'correct horse battery',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      user_id: expect.stringMatching(UUID),
      status: 201,
      message: expect.stringContaining('6-digit code'),
      activationRequired: true,
    });
  });

  it('mails a 6-digit code and stores only its HMAC', async () => {
    const email = newEmail();
    const userId = await register(email);
    const mail = await ctx.smtp.nextMail(email);
    const code = codeIn(mail.text);
    expect(mail.subject).toContain(code);
    expect(mail.headers.get('from')).toContain('no-reply@workspace-platform.dev');
    const [row] = await ctx.db.query<{ code_hmac: string; channel: string }[]>(
      'SELECT code_hmac, channel FROM activation_code WHERE user_id = $1',
      [userId],
    );
    expect(row.channel).toBe('email');
    expect(row.code_hmac).toMatch(/^[0-9a-f]{64}$/);
    expect(row.code_hmac).not.toContain(code);
  });

  it('refuses login before activation with 403 ACTIVATION_REQUIRED carrying the user_id', async () => {
    const email = newEmail();
    const userId = await register(email);
    const res = await ctx.post('/v1/api/oauth/token', {
      username: email,
      password: 'correct horse battery',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().errors[0]).toMatchObject({
      code: 'ACTIVATION_REQUIRED',
      meta: { user_id: userId },
    });
  });

  it('activates by email with the mailed code, answers a session and then allows login', async () => {
    const email = newEmail();
    const userId = await register(email);
    const code = codeIn((await ctx.smtp.nextMail(email)).text);
    const res = await ctx.post(`/v1/api/users/${userId}/activate/email`, { code });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      id: userId,
      type: 'session',
      attributes: { email, firstName: '', lastName: '' },
    });
    expect(res.json().data.attributes.accessToken).toMatch(/^[A-Za-z0-9._-]+$/);
    const login = await ctx.post('/v1/api/oauth/token', {
      username: email,
      password: 'correct horse battery',
    });
    expect(login.statusCode).toBe(200);
    expect(await countRows(ctx, `activation_code WHERE user_id = '${userId}'`)).toBe(0);
  });

  it('publishes auth.user.registered and auth.user.activated on the real stream', async () => {
    const { userId } = await registerAndActivate(ctx);
    const registered = await publishedEvents(ctx, 'auth.user.registered', (events) =>
      events.some((e) => e.payload.userId === userId),
    );
    expect(registered.find((e) => e.payload.userId === userId)?.payload.status).toBe(
      'pending_activation',
    );
    const activated = await publishedEvents(ctx, 'auth.user.activated', (events) =>
      events.some((e) => e.payload.userId === userId),
    );
    expect(activated.find((e) => e.payload.userId === userId)?.payload.status).toBe('active');
  });

  it('registers by phone, sends the code by SMS webhook and activates with it', async () => {
    const phone = '+14155550142';
    const userId = await register(phone, 'phone');
    const sms = await ctx.sms.nextSms(phone);
    expect(sms.body).toMatch(/\b\d{6}\b/);
    expect(ctx.smtp.messages.some((m) => m.text.includes(codeIn(sms.body)))).toBe(false);
    const res = await ctx.post(`/v1/api/users/${userId}/activate/phone`, {
      code: codeIn(sms.body),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.attributes.email).toBe('');
    const login = await ctx.post('/v1/api/oauth/token', {
      username: phone,
      password: 'correct horse battery',
    });
    expect(login.statusCode).toBe(200);
  });

  it('refuses the other activation method with 422 ACTIVATION_METHOD_MISMATCH and counts no attempt', async () => {
    const email = newEmail();
    const userId = await register(email);
    const code = codeIn((await ctx.smtp.nextMail(email)).text);
    const res = await ctx.post(`/v1/api/users/${userId}/activate/phone`, { code });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0]).toMatchObject({
      code: 'ACTIVATION_METHOD_MISMATCH',
      meta: { method: 'email' },
    });
    const [row] = await ctx.db.query<{ failed_attempts: number }[]>(
      'SELECT failed_attempts FROM activation_code WHERE user_id = $1',
      [userId],
    );
    expect(row.failed_attempts).toBe(0);
  });

  it('counts wrong codes and locks the code after 5, even against the right one; a new code works', async () => {
    const email = newEmail();
    const userId = await register(email);
    const code = codeIn((await ctx.smtp.nextMail(email)).text);
    const wrong = code === '000000' ? '000001' : '000000';
    const remaining: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await ctx.post(`/v1/api/users/${userId}/activate/email`, { code: wrong });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors[0].code).toBe('INVALID_CODE');
      remaining.push(res.json().errors[0].meta.attemptsRemaining);
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
    const locked = await ctx.post(`/v1/api/users/${userId}/activate/email`, { code });
    expect(locked.statusCode).toBe(422);
    expect(locked.json().errors[0].code).toBe('CODE_LOCKED');

    expect((await ctx.post(`/v1/api/users/${userId}/resend_activation`)).statusCode).toBe(200);
    const fresh = codeIn((await ctx.smtp.nextMail(email)).text);
    const ok = await ctx.post(`/v1/api/users/${userId}/activate/email`, { code: fresh });
    expect(ok.statusCode).toBe(200);
  });

  it('refuses an expired code with 422 CODE_EXPIRED', async () => {
    const email = newEmail();
    const userId = await register(email);
    const code = codeIn((await ctx.smtp.nextMail(email)).text);
    await ctx.db.query(
      `UPDATE activation_code SET expires_at = now() - interval '1 second' WHERE user_id = $1`,
      [userId],
    );
    const res = await ctx.post(`/v1/api/users/${userId}/activate/email`, { code });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0].code).toBe('CODE_EXPIRED');
    const login = await ctx.post('/v1/api/oauth/token', {
      username: email,
      password: 'correct horse battery',
    });
    expect(login.statusCode).toBe(403);
  });

  it('resend_activation answers the documented body, sends a new code and the old one stops working', async () => {
    const email = newEmail();
    const userId = await register(email);
    const first = codeIn((await ctx.smtp.nextMail(email)).text);
    const res = await ctx.post(`/v1/api/users/${userId}/resend_activation`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      user_id: userId,
      status: 200,
      message: expect.stringContaining('6-digit code'),
      method: 'email',
      expiresIn: 900,
    });
    const second = codeIn((await ctx.smtp.nextMail(email)).text);
    if (first !== second) {
      const old = await ctx.post(`/v1/api/users/${userId}/activate/email`, { code: first });
      expect(old.statusCode).toBe(422);
      expect(old.json().errors[0].code).toBe('INVALID_CODE');
    }
    const ok = await ctx.post(`/v1/api/users/${userId}/activate/email`, { code: second });
    expect(ok.statusCode).toBe(200);
  });

  it('resend_activation by SMS for a phone account', async () => {
    const phone = '+447911123456';
    const userId = await register(phone, 'phone');
    await ctx.sms.nextSms(phone);
    const res = await ctx.post(`/v1/api/users/${userId}/resend_activation`);
    expect(res.statusCode).toBe(200);
    expect(res.json().method).toBe('phone');
    expect((await ctx.sms.nextSms(phone)).body).toMatch(/\b\d{6}\b/);
  });

  it('limits resend_activation per account: the 4th within the window is 429 with Retry-After', async () => {
    const email = newEmail();
    const userId = await register(email);
    for (let i = 0; i < 3; i++) {
      expect((await ctx.post(`/v1/api/users/${userId}/resend_activation`)).statusCode).toBe(200);
    }
    const limited = await ctx.post(`/v1/api/users/${userId}/resend_activation`);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().errors[0]).toMatchObject({
      status: '429',
      code: 'RATE_LIMITED',
      meta: { limit: 'activation_resend' },
    });
    await waitFor(() => ctx.smtp.mailsTo(email).length === 4, { what: '4 mails' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ctx.smtp.mailsTo(email)).toHaveLength(4);
  });

  it('refuses activation and resend for an active account with 422 ALREADY_ACTIVE', async () => {
    const { userId } = await registerAndActivate(ctx);
    const again = await ctx.post(`/v1/api/users/${userId}/activate/email`, { code: '123456' });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors[0].code).toBe('ALREADY_ACTIVE');
    const resend = await ctx.post(`/v1/api/users/${userId}/resend_activation`);
    expect(resend.statusCode).toBe(422);
    expect(resend.json().errors[0].code).toBe('ALREADY_ACTIVE');
  });

  it('answers 404 for an unknown account and 400 for a malformed user id', async () => {
    const unknown = await ctx.post(`/v1/api/users/${randomUUID()}/activate/email`, {
      code: '123456',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().errors[0].code).toBe('NOT_FOUND');
    const resendUnknown = await ctx.post(`/v1/api/users/${randomUUID()}/resend_activation`);
    expect(resendUnknown.statusCode).toBe(404);
    const malformed = await ctx.post('/v1/api/users/not-a-uuid/activate/email', {
      code: '123456',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().errors[0].source).toEqual({ parameter: 'userId' });
  });

  it('rejects codes that are not exactly 6 digits with 400 and counts no attempt', async () => {
    const email = newEmail();
    const userId = await register(email);
    for (const code of ['12345', '1234567', 'abcdef', 123456, '', null]) {
      const res = await ctx.post(`/v1/api/users/${userId}/activate/email`, { code });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[0]).toMatchObject({
        code: 'VALIDATION_FAILED',
        source: { pointer: '/code' },
      });
    }
    const missing = await ctx.post(`/v1/api/users/${userId}/activate/email`, {});
    expect(missing.statusCode).toBe(400);
    const [row] = await ctx.db.query<{ failed_attempts: number }[]>(
      'SELECT failed_attempts FROM activation_code WHERE user_id = $1',
      [userId],
    );
    expect(row.failed_attempts).toBe(0);
  });

  it('activates once under concurrency: one session, every other try ALREADY_ACTIVE', async () => {
    const email = newEmail();
    const userId = await register(email);
    const code = codeIn((await ctx.smtp.nextMail(email)).text);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        ctx.post(`/v1/api/users/${userId}/activate/email`, { code }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 422)).toHaveLength(9);
    expect(await countRows(ctx, `refresh_token_family WHERE user_id = '${userId}'`)).toBe(1);
  });

  it('activates but opens no session at a domain whose organization requires SSO: 403 SSO_REQUIRED', async () => {
    const domain = `sso-${randomUUID().slice(0, 8)}.test`;
    const email = `pending@${domain}`;
    const userId = await register(email); // before the organization required SSO
    const code = codeIn((await ctx.smtp.nextMail(email)).text);
    await ctx.app.get(OrgSsoState).apply({
      organizationId: 900_000 + Math.floor(Math.random() * 90_000),
      domains: [domain],
      ssoRequired: true,
      version: 1,
    });
    const res = await ctx.post(`/v1/api/users/${userId}/activate/email`, { code });
    expect(res.statusCode).toBe(403);
    expect(res.json().errors[0]).toMatchObject({ code: 'SSO_REQUIRED', meta: { domain } });
    // the code proved the mailbox: the account is active, but no session was opened
    const [user] = await ctx.db.query<{ status: string }[]>(
      'SELECT status FROM app_user WHERE id = $1',
      [userId],
    );
    expect(user.status).toBe('active');
    expect(await countRows(ctx, `refresh_token_family WHERE user_id = '${userId}'`)).toBe(0);
  });
});
