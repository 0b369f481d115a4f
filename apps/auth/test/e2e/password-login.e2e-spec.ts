import { randomUUID } from 'node:crypto';
import { TxHost } from '@wp/persistence';
import { AuthAudit } from '../../src/modules/audit/auth-audit.js';
import { OrgSsoState } from '../../src/modules/federation/org-sso-state.js';
import { PasswordHasher } from '../../src/modules/passwords/password-hasher.js';
import { SessionsService } from '../../src/modules/sessions/sessions.service.js';
import { startAuthTestApp, type AuthTestContext } from '../support/auth-test-app.js';
import { countRows, newEmail, publishedEvents, registerActive } from '../support/flows.js';

/**
 * The password grant's hot path (docs/auth.md § Benchmark: login): one statement reads the account
 * and the realm of the username's domain, one writes the session with its audit entry.
 */
describe('auth: password sign-in (lookup and session statements)', () => {
  let ctx: AuthTestContext;

  beforeAll(async () => {
    ctx = await startAuthTestApp({ AUTH_EMAIL_ACTIVATION_REQUIRED: 'false' });
  });
  afterAll(() => ctx.close());

  const signIn = (username: string, password: string, headers: Record<string, string> = {}) =>
    ctx.post('/v1/api/oauth/token', { username, password }, headers);

  it('writes the session and its user.signed_in entry together, and publishes the entry', async () => {
    const user = await registerActive(ctx);
    const res = await signIn(user.email, user.password, {
      'user-agent': 'Signer/2.0',
      'x-request-id': 'req-password-login-1',
    });
    expect(res.statusCode).toBe(200);
    const familyId = JSON.parse(
      Buffer.from(res.json().data.attributes.accessToken.split('.')[1], 'base64url').toString(),
    ).sid as string;
    const [family] = await ctx.db.query<{ last_user_agent: string; created_at: Date }[]>(
      'SELECT last_user_agent, created_at FROM refresh_token_family WHERE id = $1',
      [familyId],
    );
    expect(family.last_user_agent).toBe('Signer/2.0');

    const events = await publishedEvents(ctx, 'auth.audit.recorded', (list) =>
      list.some((e) => e.payload.entries.some((x) => x.requestId === 'req-password-login-1')),
    );
    const entry = events
      .flatMap((e) => e.payload.entries)
      .find((x) => x.requestId === 'req-password-login-1');
    expect(entry).toMatchObject({
      action: 'user.signed_in',
      outcome: 'success',
      subjectUserId: user.userId,
      organizationId: null,
      actor: { type: 'user', id: user.userId, email: user.email },
      userAgent: 'Signer/2.0',
      details: { method: 'password' },
    });
    // The same row was written by the session's statement: published, and not twice.
    const rows = await ctx.db.query<{ published_at: Date | null }[]>(
      `SELECT published_at FROM outbox_message
        WHERE subject = 'auth.audit.recorded' AND payload->'entries'->0->>'requestId' = $1`,
      ['req-password-login-1'],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].published_at).not.toBeNull();
  });

  it('writes no audit entry when the session statement fails, and refuses one inside a transaction', async () => {
    const audit = ctx.app.get(AuthAudit);
    const sessions = ctx.app.get(SessionsService);
    const user = { id: randomUUID(), email: newEmail(), phone: null, firstName: '', lastName: '' };
    const meta = { clientAddress: null, userAgent: null, requestId: 'req-failing-session' };
    const draft = audit.draft({ action: 'user.signed_in', user, meta });
    // Not a UUID: the statement fails as a whole (the family, its token and the event).
    await expect(
      sessions.open({ ...user, id: 'not-a-uuid' }, 'app', meta, undefined, draft),
    ).rejects.toThrow();
    expect(await countRows(ctx, `outbox_message WHERE id = '${draft.id}'`)).toBe(0);

    await expect(
      ctx.app.get(TxHost).withTransaction(() => sessions.open(user, 'app', meta, undefined, draft)),
    ).rejects.toThrow('a transaction is active');
    expect(await countRows(ctx, `outbox_message WHERE id = '${draft.id}'`)).toBe(0);
  });

  it('answers SSO_REQUIRED at a domain that requires SSO, with or without an account, before any hash', async () => {
    const domain = `sso-${randomUUID().slice(0, 8)}.test`;
    const known = await registerActive(ctx, `known@${domain}`);
    const other = `other-${randomUUID().slice(0, 8)}.test`;
    const elsewhere = await registerActive(ctx, `known@${other}`);
    const organizationId = 800_000 + Math.floor(Math.random() * 90_000);
    await ctx.app.get(OrgSsoState).apply({
      organizationId,
      domains: [domain],
      ssoRequired: true,
      version: 1,
    });
    await ctx.app.get(OrgSsoState).apply({
      organizationId: organizationId + 1,
      domains: [other],
      ssoRequired: false,
      version: 1,
    });

    const hasher = ctx.app.get(PasswordHasher);
    const before = hasher.verifications;
    const withAccount = await signIn(known.email.toUpperCase(), known.password);
    const without = await signIn(`nobody@${domain}`, 'whatever password');
    expect(hasher.verifications).toBe(before);
    for (const res of [withAccount, without]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().errors[0]).toMatchObject({
        code: 'SSO_REQUIRED',
        meta: { connection: null, domain },
      });
    }
    expect(without.json().errors).toEqual(withAccount.json().errors);

    // A verified domain whose organization does not require SSO signs in as usual.
    expect((await signIn(elsewhere.email, elsewhere.password)).statusCode).toBe(200);
    expect((await signIn(`nobody@${other}`, 'whatever password')).statusCode).toBe(401);
    expect(hasher.verifications).toBe(before + 2);
  });
});
