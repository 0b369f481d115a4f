import { startAuthTestApp, type AuthTestContext } from '../support/auth-test-app.js';
import { countRows, newEmail, registerActive, tokensOf } from '../support/flows.js';
import { codeOfStep, enableTwoFactor, passwordStep, wrongCode } from '../support/two-factor.js';

const PASSWORD = 'correct horse battery';

/**
 * TOTP two-factor authentication (docs/auth.md § Two-factor authentication, § Two-factor
 * login) against real PostgreSQL, Redis and NATS: the second login step, replays,
 * recovery codes and the per-username limit.
 */
describe('auth: two-factor login', () => {
  let ctx: AuthTestContext;
  beforeAll(async () => {
    ctx = await startAuthTestApp({
      AUTH_EMAIL_ACTIVATION_REQUIRED: 'false',
      MFA_CHALLENGE_MAX_ATTEMPTS: '3',
    });
  });
  afterAll(() => ctx.close());

  const mfa = (body: Record<string, string>) => ctx.post('/v1/api/oauth/token/mfa', body);
  const status = (token: string) => ctx.get('/v1/api/users/me/two_factor', ctx.bearer(token));

  describe('login', () => {
    it('answers TWO_FACTOR_REQUIRED with a challenge and no session, then a session for challenge + code', async () => {
      const user = await registerActive(ctx, newEmail('login'));
      const account = await enableTwoFactor(ctx, user.accessToken, PASSWORD);
      const families = await countRows(ctx, 'refresh_token_family');

      const res = await ctx.post('/v1/api/oauth/token', {
        username: user.email,
        password: PASSWORD,
      });
      expect(res.statusCode).toBe(403);
      const error = res.json().errors[0];
      expect(error).toMatchObject({
        code: 'TWO_FACTOR_REQUIRED',
        meta: { expires_in: 300, methods: ['totp', 'recovery_code'] },
      });
      expect(error.meta.challenge_token).toMatch(/^mfa_[A-Za-z0-9_-]{43}$/);
      expect(res.json().data).toBeUndefined();
      expect(await countRows(ctx, 'refresh_token_family')).toBe(families);
      const [stored] = await ctx.db.query(
        'SELECT token_hash FROM mfa_challenge WHERE user_id = $1',
        [user.userId],
      );
      expect(stored.token_hash).not.toContain(error.meta.challenge_token);

      const ok = await mfa({
        challenge_token: error.meta.challenge_token,
        code: codeOfStep(account.secret, account.confirmedStep + 1),
      });
      expect(ok.statusCode).toBe(200);
      const body = ok.json();
      expect(body.data).toMatchObject({
        id: user.userId,
        type: 'session',
        attributes: { email: user.email, firstName: '', lastName: '', tokenType: 'Bearer' },
      });
      const tokens = tokensOf(body);
      const info = await ctx.get('/v1/api/oauth/token/info', ctx.bearer(tokens.accessToken));
      expect(info.statusCode).toBe(200);

      // The challenge is single use.
      const reused = await mfa({
        challenge_token: error.meta.challenge_token,
        code: codeOfStep(account.secret, account.confirmedStep + 2),
      });
      expect(reused.statusCode).toBe(401);
      expect(reused.json().errors[0].code).toBe('MFA_CHALLENGE_INVALID');

      // Refresh needs no second factor.
      const refreshed = await ctx.post('/v1/api/oauth/token/refresh', {
        refresh_token: tokens.refreshToken,
      });
      expect(refreshed.statusCode).toBe(200);
    });

    it('refuses a TOTP code that was already accepted (replay), even with a fresh challenge', async () => {
      const user = await registerActive(ctx, newEmail('replay'));
      const account = await enableTwoFactor(ctx, user.accessToken, PASSWORD);
      // The code that confirmed the enrolment cannot log in.
      const first = await passwordStep(ctx, user.email, PASSWORD);
      const confirmCode = codeOfStep(account.secret, account.confirmedStep);
      const replayedConfirm = await mfa({ challenge_token: first, code: confirmCode });
      expect(replayedConfirm.statusCode).toBe(401);
      expect(replayedConfirm.json().errors[0].code).toBe('INVALID_TWO_FACTOR_CODE');

      const code = codeOfStep(account.secret, account.confirmedStep + 1);
      expect((await mfa({ challenge_token: first, code })).statusCode).toBe(200);
      const second = await passwordStep(ctx, user.email, PASSWORD);
      const replay = await mfa({ challenge_token: second, code });
      expect(replay.statusCode).toBe(401);
      expect(replay.json().errors[0]).toMatchObject({ code: 'INVALID_TWO_FACTOR_CODE' });
    });

    it('accepts one code exactly once when two attempts race with it', async () => {
      const user = await registerActive(ctx, newEmail('race'));
      const account = await enableTwoFactor(ctx, user.accessToken, PASSWORD);
      const [a, b] = [
        await passwordStep(ctx, user.email, PASSWORD),
        await passwordStep(ctx, user.email, PASSWORD),
      ];
      const code = codeOfStep(account.secret, account.confirmedStep + 1);
      const answers = await Promise.all([
        mfa({ challenge_token: a, code }),
        mfa({ challenge_token: b, code }),
      ]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 401]);
    });

    it('lets a recovery code in once', async () => {
      const user = await registerActive(ctx, newEmail('recovery'));
      const account = await enableTwoFactor(ctx, user.accessToken, PASSWORD);
      const [code] = account.recoveryCodes;
      const first = await mfa({
        challenge_token: await passwordStep(ctx, user.email, PASSWORD),
        recovery_code: code.toUpperCase().replace('-', ' '), // case and separators do not matter
      });
      expect(first.statusCode).toBe(200);
      const second = await mfa({
        challenge_token: await passwordStep(ctx, user.email, PASSWORD),
        recovery_code: code,
      });
      expect(second.statusCode).toBe(401);
      expect(second.json().errors[0].code).toBe('INVALID_TWO_FACTOR_CODE');
      expect(
        (await status(tokensOf(first.json()).accessToken)).json().data.attributes,
      ).toMatchObject({ recoveryCodesRemaining: 9 });
    });

    it('counts wrong codes toward the per-username login limit and uses a challenge up', async () => {
      const user = await registerActive(ctx, newEmail('limit'));
      const account = await enableTwoFactor(ctx, user.accessToken, PASSWORD);
      const challenge = await passwordStep(ctx, user.email, PASSWORD); // 1 point
      const right = codeOfStep(account.secret, account.confirmedStep + 1);
      const wrong = wrongCode(account.secret, account.confirmedStep);
      const remaining: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await mfa({ challenge_token: challenge, code: wrong }); // 3 points
        expect(res.statusCode).toBe(401);
        expect(res.json().errors[0].code).toBe('INVALID_TWO_FACTOR_CODE');
        remaining.push(res.json().errors[0].meta.attemptsRemaining);
      }
      expect(remaining).toEqual([2, 1, 0]);
      const usedUp = await mfa({ challenge_token: challenge, code: right });
      expect(usedUp.statusCode).toBe(401);
      expect(usedUp.json().errors[0].code).toBe('MFA_CHALLENGE_INVALID');

      const fresh = await passwordStep(ctx, user.email, PASSWORD); // 5th point: the limit
      const limited = await mfa({ challenge_token: fresh, code: right });
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toBeDefined();
      expect(limited.json().errors[0].meta.limit).toBe('login');
    });

    it('validates the body: exactly one of code and recovery_code, and a well-formed challenge', async () => {
      const both = await mfa({ challenge_token: 'mfa_x', code: '123456', recovery_code: 'a' });
      expect(both.statusCode).toBe(400);
      expect(both.json().errors[0]).toMatchObject({
        code: 'VALIDATION_FAILED',
        source: { pointer: '/code' },
      });
      expect((await mfa({ challenge_token: 'mfa_x' })).statusCode).toBe(400);
      expect((await ctx.post('/v1/api/oauth/token/mfa', { code: '123456' })).statusCode).toBe(400);
      const unknown = await mfa({ challenge_token: 'mfa_unknown', code: '123456' });
      expect(unknown.statusCode).toBe(401);
      expect(unknown.json().errors[0].code).toBe('MFA_CHALLENGE_INVALID');
      const malformed = await mfa({ challenge_token: 'mfa bad!', code: '123456' });
      expect(malformed.statusCode).toBe(401);
    });
  });
});
