import { startAuthTestApp, type AuthTestContext } from '../support/auth-test-app.js';
import { countRows, newEmail, publishedEvents, registerActive } from '../support/flows.js';
import { codeOfStep, enableTwoFactor, passwordStep, wrongCode } from '../support/two-factor.js';

const PASSWORD = 'correct horse battery';

/**
 * TOTP two-factor authentication (docs/auth.md § Two-factor authentication, § Two-factor
 * login) against real PostgreSQL, Redis and NATS: enrolment, turning it off, new
 * recovery codes, and audit events without secrets.
 */
describe('auth: two-factor enrolment and management', () => {
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

  describe('enrolment', () => {
    it('shows the secret once with its otpauth:// URI and QR code, after re-checking the password', async () => {
      const user = await registerActive(ctx, newEmail('enrol'));
      const wrong = await ctx.post(
        '/v1/api/users/me/two_factor',
        { password: 'not the password' },
        ctx.bearer(user.accessToken),
      );
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().errors[0]).toMatchObject({
        code: 'CURRENT_PASSWORD_INVALID',
        source: { pointer: '/password' },
      });

      const res = await ctx.post(
        '/v1/api/users/me/two_factor',
        { password: PASSWORD },
        ctx.bearer(user.accessToken),
      );
      expect(res.statusCode).toBe(201);
      const { data } = res.json();
      expect(data).toMatchObject({ type: 'two_factor_enrolment', id: user.userId });
      const { secret, otpauthUri, qrCodeSvg, qrCodeDataUrl } = data.attributes;
      expect(secret).toMatch(/^[A-Z2-7]{32}$/); // 160 bits, base32
      expect(otpauthUri).toMatch(/^otpauth:\/\/totp\/Workspace%20Platform:/);
      expect(otpauthUri).toContain(`secret=${secret}`);
      expect(otpauthUri).toContain('period=30');
      expect(qrCodeSvg).toMatch(/^<svg /);
      expect(Buffer.from(qrCodeDataUrl.split(',')[1], 'base64').toString()).toBe(qrCodeSvg);
      expect(data.attributes).toMatchObject({ algorithm: 'SHA1', digits: 6, period: 30 });

      // At rest the secret is sealed with the key ring, never in clear.
      const [row] = await ctx.db.query(
        'SELECT sealed_secret, confirmed_at FROM totp_credential WHERE user_id = $1',
        [user.userId],
      );
      expect(row.sealed_secret).toMatch(/^v\d+\./);
      expect(row.sealed_secret).not.toContain(secret);
      expect(row.confirmed_at).toBeNull();
      // Not on yet: login is unchanged until the enrolment is confirmed.
      const login = await ctx.post('/v1/api/oauth/token', {
        username: user.email,
        password: PASSWORD,
      });
      expect(login.statusCode).toBe(200);
      expect((await status(user.accessToken)).json().data.attributes).toMatchObject({
        enabled: false,
        enrolmentPending: true,
      });
    });

    it('turns two-factor on with a first code, answers ten recovery codes once and stores only their HMACs', async () => {
      const user = await registerActive(ctx, newEmail('confirm'));
      const started = await ctx.post(
        '/v1/api/users/me/two_factor',
        { password: PASSWORD },
        ctx.bearer(user.accessToken),
      );
      const secret = started.json().data.attributes.secret as string;
      const wrong = await ctx.post(
        '/v1/api/users/me/two_factor/confirm',
        { code: wrongCode(secret) },
        ctx.bearer(user.accessToken),
      );
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().errors[0].code).toBe('INVALID_TWO_FACTOR_CODE');

      const now = Math.floor(Date.now() / 30_000);
      const res = await ctx.post(
        '/v1/api/users/me/two_factor/confirm',
        { code: codeOfStep(secret, now) },
        ctx.bearer(user.accessToken),
      );
      expect(res.statusCode).toBe(200);
      const codes = res.json().data.attributes.recoveryCodes as string[];
      expect(codes).toHaveLength(10);
      expect(new Set(codes).size).toBe(10);
      for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);

      const stored: { code_hash: string }[] = await ctx.db.query(
        'SELECT code_hash FROM recovery_code WHERE user_id = $1',
        [user.userId],
      );
      expect(stored).toHaveLength(10);
      const text = JSON.stringify(stored);
      for (const code of codes) expect(text).not.toContain(code.replace('-', ''));

      expect((await status(user.accessToken)).json().data.attributes).toMatchObject({
        enabled: true,
        enrolmentPending: false,
        recoveryCodesRemaining: 10,
      });
      const again = await ctx.post(
        '/v1/api/users/me/two_factor',
        { password: PASSWORD },
        ctx.bearer(user.accessToken),
      );
      expect(again.statusCode).toBe(409);
      expect(again.json().errors[0].code).toBe('TWO_FACTOR_ALREADY_ENABLED');

      const events = await publishedEvents(ctx, 'auth.user.two_factor_changed', (list) =>
        list.some((e) => e.payload.userId === user.userId),
      );
      expect(events.find((e) => e.payload.userId === user.userId)?.payload).toEqual({
        userId: user.userId,
        enabled: true,
        version: 1,
      });
    });

    it('refuses confirming without a started enrolment', async () => {
      const user = await registerActive(ctx, newEmail('nostart'));
      const res = await ctx.post(
        '/v1/api/users/me/two_factor/confirm',
        { code: '123456' },
        ctx.bearer(user.accessToken),
      );
      expect(res.statusCode).toBe(409);
      expect(res.json().errors[0].code).toBe('TWO_FACTOR_ENROLMENT_NOT_STARTED');
    });
  });

  describe('managing two-factor once on', () => {
    it('turns it off only with a valid code, then login needs the password alone again', async () => {
      const user = await registerActive(ctx, newEmail('disable'));
      const account = await enableTwoFactor(ctx, user.accessToken, PASSWORD);
      const wrong = await ctx.post(
        '/v1/api/users/me/two_factor/disable',
        { recovery_code: 'aaaaa-aaaaa' },
        ctx.bearer(user.accessToken),
      );
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().errors[0].code).toBe('INVALID_TWO_FACTOR_CODE');

      const res = await ctx.post(
        '/v1/api/users/me/two_factor/disable',
        { code: codeOfStep(account.secret, account.confirmedStep + 1) },
        ctx.bearer(user.accessToken),
      );
      expect(res.statusCode).toBe(200);
      expect(res.json().data.attributes).toMatchObject({ enabled: false });
      expect(await countRows(ctx, `totp_credential WHERE user_id = '${user.userId}'`)).toBe(0);
      expect(await countRows(ctx, `recovery_code WHERE user_id = '${user.userId}'`)).toBe(0);
      const login = await ctx.post('/v1/api/oauth/token', {
        username: user.email,
        password: PASSWORD,
      });
      expect(login.statusCode).toBe(200);
      const again = await ctx.post(
        '/v1/api/users/me/two_factor/disable',
        { code: '123456' },
        ctx.bearer(user.accessToken),
      );
      expect(again.statusCode).toBe(409);
      expect(again.json().errors[0].code).toBe('TWO_FACTOR_NOT_ENABLED');
      const events = await publishedEvents(ctx, 'auth.user.two_factor_changed', (list) =>
        list.some((e) => e.payload.userId === user.userId && !e.payload.enabled),
      );
      expect(
        events.filter((e) => e.payload.userId === user.userId).map((e) => e.payload.version),
      ).toEqual([1, 2]);
    });

    it('regenerates recovery codes: the new set works, the old one does not', async () => {
      const user = await registerActive(ctx, newEmail('regen'));
      const account = await enableTwoFactor(ctx, user.accessToken, PASSWORD);
      const res = await ctx.post(
        '/v1/api/users/me/two_factor/recovery_codes',
        { recovery_code: account.recoveryCodes[0] },
        ctx.bearer(user.accessToken),
      );
      expect(res.statusCode).toBe(200);
      const fresh = res.json().data.attributes.recoveryCodes as string[];
      expect(fresh).toHaveLength(10);
      expect(fresh.some((c) => account.recoveryCodes.includes(c))).toBe(false);
      const old = await mfa({
        challenge_token: await passwordStep(ctx, user.email, PASSWORD),
        recovery_code: account.recoveryCodes[1],
      });
      expect(old.statusCode).toBe(401);
      const ok = await mfa({
        challenge_token: await passwordStep(ctx, user.email, PASSWORD),
        recovery_code: fresh[0],
      });
      expect(ok.statusCode).toBe(200);
    });

    it('publishes audit events without any password, code, secret or token in them', async () => {
      const user = await registerActive(ctx, newEmail('audit'));
      const account = await enableTwoFactor(ctx, user.accessToken, PASSWORD);
      const challenge = await passwordStep(ctx, user.email, PASSWORD);
      const code = codeOfStep(account.secret, account.confirmedStep + 1);
      const wrong = wrongCode(account.secret, account.confirmedStep);
      await mfa({ challenge_token: challenge, code: wrong });
      const session = await mfa({ challenge_token: challenge, code });
      expect(session.statusCode).toBe(200);
      const events = await publishedEvents(ctx, 'auth.audit.recorded', (list) => {
        const mine = list
          .flatMap((e) => e.payload.entries)
          .filter((e) => e.subjectUserId === user.userId);
        return mine.some((e) => e.action === 'user.signed_in' && e.outcome === 'success');
      });
      const mine = events
        .flatMap((e) => e.payload.entries)
        .filter((e) => e.subjectUserId === user.userId);
      expect(mine.map((e) => [e.action, e.outcome, e.details['method'] ?? null])).toEqual(
        expect.arrayContaining([
          ['user.two_factor_enabled', 'success', null],
          ['user.signed_in', 'failure', 'password+totp'],
          ['user.signed_in', 'success', 'password+totp'],
        ]),
      );
      const text = JSON.stringify(mine);
      for (const secret of [
        PASSWORD,
        account.secret,
        code,
        wrong,
        challenge,
        ...account.recoveryCodes,
      ]) {
        expect(text).not.toContain(secret);
      }
      expect(mine.every((e) => e.organizationId === null && e.actor.id === user.userId)).toBe(true);
    });
  });
});
