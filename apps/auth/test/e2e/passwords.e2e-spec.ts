import { performance } from 'node:perf_hooks';
import { startAuthTestApp, type AuthTestContext } from '../support/auth-test-app.js';
import { login, newEmail, registerActive, type Tokens } from '../support/flows.js';

/**
 * docs/api.md § Accounts and sessions (`/users/password/reset_request`, `/reset`, `/change`),
 * docs/api.md § Errors "Other rules" (same 200 whether or not the email exists),
 * docs/api.md § Limits (per email), docs/api.md § Authentication 10 (tokens never in URLs);
 * docs/architecture.md § Mail and SMS.
 */
describe('auth: password reset and change', () => {
  let ctx: AuthTestContext;

  beforeAll(async () => {
    ctx = await startAuthTestApp({
      AUTH_EMAIL_ACTIVATION_REQUIRED: 'false',
      PUBLIC_WEB_URL: 'https://app.example.com/',
      PASSWORD_RESET_RATE_LIMIT: '1000',
    });
  });
  afterAll(() => ctx.close());

  const requestReset = (email: string) =>
    ctx.post('/v1/api/users/password/reset_request', { email });
  const reset = (email: string, resetToken: string, newPassword = 'a brand new secret') =>
    ctx.post('/v1/api/users/password/reset', {
      email,
      new_password: newPassword,
      reset_token: resetToken,
    });
  const info = (accessToken: string) =>
    ctx.get('/v1/api/oauth/token/info', ctx.bearer(accessToken));
  const refresh = (refreshToken: string) =>
    ctx.post('/v1/api/oauth/token/refresh', { refresh_token: refreshToken });

  /** Requests a reset and returns the token from the mail's X-Reset-Token header. */
  async function resetToken(email: string): Promise<string> {
    expect((await requestReset(email)).statusCode).toBe(200);
    const mail = await ctx.smtp.nextMail(email);
    return mail.headers.get('x-reset-token')!;
  }

  async function expectSessionDead(session: Tokens): Promise<void> {
    expect((await info(session.accessToken)).statusCode).toBe(401);
    expect((await refresh(session.refreshToken)).statusCode).toBe(401);
  }

  it('answers reset_request identically whether or not the email has an account, and mails only the account', async () => {
    const user = await registerActive(ctx);
    const ghost = newEmail('ghost');
    const known = await requestReset(user.email);
    const unknown = await requestReset(ghost);
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.body).toBe(known.body);
    expect(known.json()).toEqual({ status: 200, message: expect.stringContaining('reset link') });
    const omit = (h: Record<string, unknown>) => {
      const { date: _d, 'x-request-id': _r, ...rest } = h;
      return rest;
    };
    expect(omit(unknown.headers)).toEqual(omit(known.headers));
    await ctx.smtp.nextMail(user.email);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(ctx.smtp.mailsTo(ghost)).toHaveLength(0);
  });

  it('answers reset_request in comparable time for known and unknown emails', async () => {
    const user = await registerActive(ctx);
    const time = async (email: string) => {
      const start = performance.now();
      expect((await requestReset(email)).statusCode).toBe(200);
      return performance.now() - start;
    };
    // Paired and alternating: each round times both paths back to back, in turns, so a load
    // that drifts over the run (a busy CI machine) moves both sides of a pair alike.
    const known: number[] = [];
    const unknown: number[] = [];
    const differences: number[] = [];
    for (let i = 0; i < 25; i++) {
      const ghost = newEmail('ghost');
      let k: number;
      let u: number;
      if (i % 2 === 0) {
        k = await time(user.email);
        u = await time(ghost);
      } else {
        u = await time(ghost);
        k = await time(user.email);
      }
      known.push(k);
      unknown.push(u);
      differences.push(k - u);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    // Both paths do the same work (no hash, one outbox row or none); a difference in kind
    // (e.g. a password hash on one path) must show, machine noise must not.
    const slower = Math.max(median(known), median(unknown));
    expect(Math.abs(median(differences))).toBeLessThan(Math.max(15, 0.5 * slower));
  });

  it('mails the token in the link fragment and an X-Reset-Token header, never in a query string', async () => {
    const user = await registerActive(ctx);
    const token = await resetToken(user.email);
    const mail = ctx.smtp.mailsTo(user.email).at(-1)!;
    expect(token).toMatch(/^[A-Za-z0-9._-]{32,}$/);
    const link = /https:\/\/\S+/.exec(mail.text)![0];
    const url = new URL(link);
    expect(`${url.origin}${url.pathname}`).toBe('https://app.example.com/reset-password');
    expect(url.search).toBe('');
    const fragment = new URLSearchParams(url.hash.slice(1));
    expect(fragment.get('token')).toBe(token);
    expect(fragment.get('email')).toBe(user.email);
    expect(mail.raw).not.toMatch(/\?[^\s]*token/i);
  });

  it('resets the password: the new one works, the old one and every old session are dead', async () => {
    const user = await registerActive(ctx);
    const second = await login(ctx, user.email, user.password);
    const token = await resetToken(user.email);
    const res = await reset(user.email, token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 200, message: expect.any(String), sessionsEnded: 2 });
    await expectSessionDead(user);
    await expectSessionDead(second);
    const old = await ctx.post('/v1/api/oauth/token', {
      username: user.email,
      password: user.password,
    });
    expect(old.statusCode).toBe(401);
    await login(ctx, user.email, 'a brand new secret');
  });

  it('accepts a reset token once only', async () => {
    const user = await registerActive(ctx);
    const token = await resetToken(user.email);
    expect((await reset(user.email, token)).statusCode).toBe(200);
    const again = await reset(user.email, token, 'yet another secret');
    expect(again.statusCode).toBe(422);
    expect(again.json().errors[0].code).toBe('RESET_TOKEN_INVALID');
    await login(ctx, user.email, 'a brand new secret');
  });

  it('uses a reset token once even under concurrency', async () => {
    const user = await registerActive(ctx);
    const token = await resetToken(user.email);
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) => reset(user.email, token, `parallel secret ${i}`)),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 422)).toHaveLength(4);
  });

  it('invalidates the previous token when a new reset is requested', async () => {
    const user = await registerActive(ctx);
    const first = await resetToken(user.email);
    const second = await resetToken(user.email);
    expect((await reset(user.email, first)).statusCode).toBe(422);
    expect((await reset(user.email, second)).statusCode).toBe(200);
  });

  it('refuses an expired token, a token for another email, and a malformed token with 422', async () => {
    const user = await registerActive(ctx);
    const other = await registerActive(ctx);
    const token = await resetToken(user.email);
    expect((await reset(other.email, token)).json().errors[0].code).toBe('RESET_TOKEN_INVALID');
    expect((await reset(user.email, 'prt_not$valid')).statusCode).toBe(422);
    await ctx.db.query(
      `UPDATE password_reset_token SET expires_at = now() - interval '1 second'
        WHERE user_id = $1`,
      [user.userId],
    );
    const expired = await reset(user.email, token);
    expect(expired.statusCode).toBe(422);
    expect(expired.json().errors[0].code).toBe('RESET_TOKEN_INVALID');
    await login(ctx, user.email, user.password);
  });

  it('clears the login limit on reset, so a locked-out user gets back in', async () => {
    const user = await registerActive(ctx);
    for (let i = 0; i < 5; i++) {
      await ctx.post('/v1/api/oauth/token', { username: user.email, password: 'nope nope' });
    }
    const locked = await ctx.post('/v1/api/oauth/token', {
      username: user.email,
      password: user.password,
    });
    expect(locked.statusCode).toBe(429);
    expect((await reset(user.email, await resetToken(user.email))).statusCode).toBe(200);
    await login(ctx, user.email, 'a brand new secret');
  });

  it('changes the password with a bearer token, ends the other sessions and keeps the caller’s', async () => {
    const user = await registerActive(ctx);
    const other = await login(ctx, user.email, user.password);
    const res = await ctx.post(
      '/v1/api/users/password/change',
      { new_password: 'changed secret 1' },
      ctx.bearer(user.accessToken),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 200, message: expect.any(String), sessionsEnded: 1 });
    await expectSessionDead(other);
    expect((await info(user.accessToken)).statusCode).toBe(200);
    expect((await refresh(user.refreshToken)).statusCode).toBe(200);
    await login(ctx, user.email, 'changed secret 1');
  });

  it('checks current_password when sent: wrong → 422 and nothing changes, right → 200', async () => {
    const user = await registerActive(ctx);
    const other = await login(ctx, user.email, user.password);
    const wrong = await ctx.post(
      '/v1/api/users/password/change',
      { new_password: 'changed secret 2', current_password: 'not my password' },
      ctx.bearer(user.accessToken),
    );
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors[0]).toMatchObject({
      code: 'CURRENT_PASSWORD_INVALID',
      source: { pointer: '/current_password' },
    });
    expect((await info(other.accessToken)).statusCode).toBe(200);
    await login(ctx, user.email, user.password);
    const right = await ctx.post(
      '/v1/api/users/password/change',
      { new_password: 'changed secret 2', current_password: user.password },
      ctx.bearer(user.accessToken),
    );
    expect(right.statusCode).toBe(200);
    await login(ctx, user.email, 'changed secret 2');
  });

  it('drops an outstanding reset token when the password is changed', async () => {
    const user = await registerActive(ctx);
    const token = await resetToken(user.email);
    const change = await ctx.post(
      '/v1/api/users/password/change',
      { new_password: 'changed secret 3' },
      ctx.bearer(user.accessToken),
    );
    expect(change.statusCode).toBe(200);
    expect((await reset(user.email, token)).statusCode).toBe(422);
  });

  it('requires a valid bearer token to change a password', async () => {
    const missing = await ctx.post('/v1/api/users/password/change', {
      new_password: 'changed secret 4',
    });
    expect(missing.statusCode).toBe(401);
    expect(missing.json().errors[0].code).toBe('TOKEN_MISSING');
    const user = await registerActive(ctx);
    await ctx.get('/v1/api/oauth/token/revoke', ctx.bearer(user.accessToken));
    const revoked = await ctx.post(
      '/v1/api/users/password/change',
      { new_password: 'changed secret 4' },
      ctx.bearer(user.accessToken),
    );
    expect(revoked.statusCode).toBe(401);
  });
});

describe('auth: password reset request limit', () => {
  let ctx: AuthTestContext;

  beforeAll(async () => {
    ctx = await startAuthTestApp({ AUTH_EMAIL_ACTIVATION_REQUIRED: 'false' });
  });
  afterAll(() => ctx.close());

  it('allows 3 reset requests per email per hour, for unknown emails too, then 429', async () => {
    const user = await registerActive(ctx);
    for (const email of [user.email, newEmail('ghost')]) {
      const statuses = [];
      for (let i = 0; i < 4; i++) {
        statuses.push(
          (await ctx.post('/v1/api/users/password/reset_request', { email })).statusCode,
        );
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
    }
  });
});
