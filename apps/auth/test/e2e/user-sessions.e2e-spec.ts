import { startAuthTestApp, type AuthTestContext } from '../support/auth-test-app.js';
import {
  newEmail,
  publishedEvents,
  registerActive,
  tokensOf,
  type Tokens,
} from '../support/flows.js';

const PASSWORD = 'correct horse battery';

/**
 * Session management of the signed-in user (docs/auth.md § Session management): the list of
 * live refresh token families with their last use, ending one, ending all others.
 */
describe('auth: the user’s sessions', () => {
  let ctx: AuthTestContext;
  beforeAll(async () => {
    ctx = await startAuthTestApp({ AUTH_EMAIL_ACTIVATION_REQUIRED: 'false' });
  });
  afterAll(() => ctx.close());

  const loginFrom = async (email: string, agent: string): Promise<Tokens> => {
    const res = await ctx.post(
      '/v1/api/oauth/token',
      { username: email, password: PASSWORD },
      { 'user-agent': agent },
    );
    expect(res.statusCode).toBe(200);
    return tokensOf(res.json());
  };
  const list = (token: string) => ctx.get('/v1/api/users/me/sessions', ctx.bearer(token));
  const del = (url: string, token: string) =>
    ctx.app.inject({
      method: 'DELETE',
      url,
      headers: { 'api-key': ctx.apiKey, ...ctx.bearer(token) },
    });

  it('lists the live sessions, most recently used first, with client, user agent, address and the current one', async () => {
    const email = newEmail('list');
    const registered = await registerActive(ctx, email);
    const laptop = await loginFrom(email, 'Laptop/1.0');
    const phone = await loginFrom(email, 'Phone/2.0');
    const res = await list(laptop.accessToken);
    expect(res.statusCode).toBe(200);
    const sessions = res.json().data as {
      id: string;
      type: string;
      attributes: Record<string, unknown> & { clientApplication: { id: string; name: string } };
    }[];
    expect(sessions).toHaveLength(3);
    const ids = sessions.map((s) => s.id);
    const sid = (token: string) =>
      JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).sid as string;
    expect(ids[0]).toBe(sid(phone.accessToken));
    expect(ids).toEqual(
      expect.arrayContaining([sid(laptop.accessToken), sid(registered.accessToken)]),
    );
    const current = sessions.filter((s) => s.attributes['current']);
    expect(current.map((s) => s.id)).toEqual([sid(laptop.accessToken)]);
    const laptopSession = sessions.find((s) => s.id === sid(laptop.accessToken))!;
    expect(laptopSession).toMatchObject({
      type: 'session',
      attributes: { userAgent: 'Laptop/1.0', clientAddress: '127.0.0.1', current: true },
    });
    expect(laptopSession.attributes.clientApplication.name).toEqual(expect.any(String));
    for (const key of ['createdAt', 'lastUsedAt', 'expiresAt']) {
      expect(new Date(laptopSession.attributes[key] as string).toISOString()).toBe(
        laptopSession.attributes[key],
      );
    }
  });

  it('moves a session’s last use, user agent and address forward on refresh', async () => {
    const email = newEmail('refresh');
    await registerActive(ctx, email);
    const first = await loginFrom(email, 'Old/1.0');
    const before = (await list(first.accessToken)).json().data[0].attributes;
    await new Promise((resolve) => setTimeout(resolve, 20));
    const refreshed = await ctx.post(
      '/v1/api/oauth/token/refresh',
      { refresh_token: first.refreshToken },
      { 'user-agent': 'New/2.0' },
    );
    expect(refreshed.statusCode).toBe(200);
    const after = (await list(tokensOf(refreshed.json()).accessToken)).json().data;
    const same = after.find(
      (s: { attributes: { createdAt: string } }) => s.attributes.createdAt === before.createdAt,
    );
    expect(same.attributes.userAgent).toBe('New/2.0');
    expect(Date.parse(same.attributes.lastUsedAt)).toBeGreaterThan(Date.parse(before.lastUsedAt));
    expect(same.attributes.current).toBe(true);
  });

  it('ends one session: its refresh token and access tokens stop working, the others go on', async () => {
    const email = newEmail('end');
    const mine = await registerActive(ctx, email);
    const other = await loginFrom(email, 'Other/1.0');
    const otherId = (await list(other.accessToken))
      .json()
      .data.find((s: { attributes: { current: boolean } }) => s.attributes.current).id;

    const res = await del(`/v1/api/users/me/sessions/${otherId}`, mine.accessToken);
    expect(res.statusCode).toBe(204);
    const info = await ctx.get('/v1/api/oauth/token/info', ctx.bearer(other.accessToken));
    expect(info.statusCode).toBe(401);
    expect(info.json().errors[0].code).toBe('TOKEN_REVOKED');
    const refresh = await ctx.post('/v1/api/oauth/token/refresh', {
      refresh_token: other.refreshToken,
    });
    expect(refresh.statusCode).toBe(401);
    expect(
      (await ctx.get('/v1/api/oauth/token/info', ctx.bearer(mine.accessToken))).statusCode,
    ).toBe(200);
    const [row] = await ctx.db.query(
      'SELECT revoked_reason FROM refresh_token_family WHERE id = $1',
      [otherId],
    );
    expect(row.revoked_reason).toBe('ended_by_user');

    const again = await del(`/v1/api/users/me/sessions/${otherId}`, mine.accessToken);
    expect(again.statusCode).toBe(404);
    const malformed = await del('/v1/api/users/me/sessions/not-a-uuid', mine.accessToken);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().errors[0].source).toEqual({ parameter: 'sessionId' });
  });

  it('answers 404 for another user’s session and leaves it alive', async () => {
    const alice = await registerActive(ctx, newEmail('alice'));
    const bob = await registerActive(ctx, newEmail('bob'));
    const bobSession = (await list(bob.accessToken)).json().data[0].id;
    const res = await del(`/v1/api/users/me/sessions/${bobSession}`, alice.accessToken);
    expect(res.statusCode).toBe(404);
    expect(
      (await ctx.get('/v1/api/oauth/token/info', ctx.bearer(bob.accessToken))).statusCode,
    ).toBe(200);
  });

  it('ends every other session and keeps the current one', async () => {
    const email = newEmail('others');
    const a = await registerActive(ctx, email);
    const b = await loginFrom(email, 'B/1.0');
    const c = await loginFrom(email, 'C/1.0');
    const res = await del('/v1/api/users/me/sessions', c.accessToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ sessionsEnded: 2 });
    for (const ended of [a, b]) {
      expect(
        (await ctx.get('/v1/api/oauth/token/info', ctx.bearer(ended.accessToken))).statusCode,
      ).toBe(401);
    }
    const left = (await list(c.accessToken)).json().data;
    expect(left).toHaveLength(1);
    expect(left[0].attributes.current).toBe(true);

    const events = await publishedEvents(ctx, 'auth.audit.recorded', (all) =>
      all.some((e) =>
        e.payload.entries.some(
          (x) => x.subjectUserId === c.userId && x.action === 'session.others_ended',
        ),
      ),
    );
    const entry = events
      .flatMap((e) => e.payload.entries)
      .find((x) => x.subjectUserId === c.userId && x.action === 'session.others_ended')!;
    expect(entry.details).toEqual({ sessionsEnded: 2 });
    expect(entry.userAgent).toBe('lightMyRequest');
  });

  it('needs a bearer token', async () => {
    const res = await ctx.get('/v1/api/users/me/sessions');
    expect(res.statusCode).toBe(401);
  });
});
