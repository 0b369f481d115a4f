import { randomUUID } from 'node:crypto';
import { startAuthTestApp, type AuthTestContext } from '../support/auth-test-app.js';
import { countRows, registerActive, tokensOf, type Tokens } from '../support/flows.js';
import { RefreshHints } from '../../src/modules/sessions/refresh-hints.js';
import { SessionsRepository } from '../../src/modules/sessions/sessions.repository.js';
import { SessionsService } from '../../src/modules/sessions/sessions.service.js';
import { TokenService } from '../../src/modules/tokens/token.service.js';
import { UsersRepository } from '../../src/modules/accounts/users.repository.js';

/**
 * docs/api.md § Authentication 4-6 (`POST /oauth/token/refresh`, `GET /oauth/token/revoke`) with
 * docs/architecture.md § Identity and access ("Refresh token"): rotation in families with one
 * conditional UPDATE, a 20 s grace window answering the same pair, re-use revoking the family,
 * revoke always winning.
 */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('auth: refresh token rotation in families', () => {
  let ctx: AuthTestContext;

  beforeAll(async () => {
    ctx = await startAuthTestApp({ AUTH_EMAIL_ACTIVATION_REQUIRED: 'false' });
  });
  afterAll(() => ctx.close());

  const refresh = (refreshToken: string) =>
    ctx.post('/v1/api/oauth/token/refresh', { refresh_token: refreshToken });
  const info = (accessToken: string) =>
    ctx.get('/v1/api/oauth/token/info', ctx.bearer(accessToken));
  const familyOf = async (accessToken: string) => {
    const res = await info(accessToken);
    return res.json<{ sid: string }>().sid;
  };
  const family = async (sid: string) =>
    (
      await ctx.db.query<{ generation: number; revoked_reason: string | null }[]>(
        'SELECT generation, revoked_reason FROM refresh_token_family WHERE id = $1',
        [sid],
      )
    )[0];

  /**
   * Expects every token given to be refused: access tokens by the guard, refresh tokens by refresh.
   */
  async function expectDead(tokens: Partial<Tokens>[]): Promise<void> {
    for (const t of tokens) {
      if (t.accessToken) expect((await info(t.accessToken)).statusCode).toBe(401);
      if (t.refreshToken) expect((await refresh(t.refreshToken)).statusCode).toBe(401);
    }
  }

  it('rotates: a new access and refresh token in the session shape, same session id', async () => {
    const session = await registerActive(ctx);
    const res = await refresh(session.refreshToken);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data).toMatchObject({
      id: session.userId,
      type: 'session',
      attributes: { email: session.email, firstName: '', lastName: '' },
    });
    const next = tokensOf(body);
    expect(next.accessToken).not.toBe(session.accessToken);
    expect(next.refreshToken).not.toBe(session.refreshToken);
    expect(next.refreshToken).toMatch(/^[A-Za-z0-9._-]+$/);
    expect(await familyOf(next.accessToken)).toBe(await familyOf(session.accessToken));
    expect((await refresh(next.refreshToken)).statusCode).toBe(200);
  });

  it('answers a replay of the just-rotated token within the grace window with the SAME pair, without rotating again', async () => {
    const session = await registerActive(ctx);
    const first = await refresh(session.refreshToken);
    const replay = await refresh(session.refreshToken);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual(first.json());
    expect((await family(await familyOf(session.accessToken))).generation).toBe(1);
  });

  it('stores the grace pair encrypted, never in clear', async () => {
    const session = await registerActive(ctx);
    const next = tokensOf((await refresh(session.refreshToken)).json());
    const [row] = await ctx.db.query<{ grace_response: string }[]>(
      'SELECT grace_response FROM refresh_token_family WHERE id = $1',
      [await familyOf(next.accessToken)],
    );
    expect(row.grace_response).toMatch(/^v1\./);
    expect(row.grace_response).not.toContain(next.refreshToken);
    expect(row.grace_response).not.toContain(next.accessToken.split('.')[1]);
  });

  it('revokes the whole family when the rotated token is replayed after the grace window (401 REFRESH_TOKEN_REUSED)', async () => {
    const session = await registerActive(ctx);
    const next = tokensOf((await refresh(session.refreshToken)).json());
    const sid = await familyOf(next.accessToken);
    await ctx.db.query(
      `UPDATE refresh_token_family SET rotated_at = now() - interval '21 seconds' WHERE id = $1`,
      [sid],
    );
    const replay = await refresh(session.refreshToken);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().errors[0].code).toBe('REFRESH_TOKEN_REUSED');
    expect((await family(sid)).revoked_reason).toBe('reuse_detected');
    await expectDead([session, next]);
  });

  it('answers 50 parallel refreshes of one token with one rotation and 50 identical 200 answers', async () => {
    const session = await registerActive(ctx);
    const sid = await familyOf(session.accessToken);
    const tokensBefore = await countRows(ctx, `refresh_token WHERE family_id = '${sid}'`);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => refresh(session.refreshToken)),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(50).fill(200));
    const bodies = answers.map((a) => a.body);
    expect(new Set(bodies).size).toBe(1);
    expect((await family(sid)).generation).toBe(1);
    expect(await countRows(ctx, `refresh_token WHERE family_id = '${sid}'`)).toBe(tokensBefore + 1);
    const next = tokensOf(answers[0].json());
    expect((await info(next.accessToken)).statusCode).toBe(200);
  });

  it('revokes the family when an older token is replayed afterwards: 401 and every token of the family dead', async () => {
    const session = await registerActive(ctx);
    const other = tokensOf(
      (
        await ctx.post('/v1/api/oauth/token', {
          username: session.email,
          password: session.password,
        })
      ).json(),
    );
    const parallel = await Promise.all(
      Array.from({ length: 50 }, () => refresh(session.refreshToken)),
    );
    const second = tokensOf(parallel[0].json());
    const third = tokensOf((await refresh(second.refreshToken)).json());
    const replay = await refresh(session.refreshToken);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().errors[0].code).toBe('REFRESH_TOKEN_REUSED');
    await expectDead([session, second, third]);
    // another session of the same user is not part of the family and keeps working
    expect((await info(other.accessToken)).statusCode).toBe(200);
    expect((await refresh(other.refreshToken)).statusCode).toBe(200);
  });

  it('never accepts a token issued after the logout, over 1,000 interleaved refresh/logout pairs', async () => {
    const user = await registerActive(ctx);
    const account = await ctx.app.get(UsersRepository).findById(user.userId);
    const sessions = ctx.app.get(SessionsService);
    const appId = (await ctx.db.query<{ id: string }[]>('SELECT id FROM client_application'))[0].id;
    const outcomes = { refreshWon: 0, logoutWon: 0 };
    let logoutMs = 5; // running estimate of one logout's duration
    const violations: string[] = [];
    const pairs = 1000;
    const batch = 25;
    for (let start = 0; start < pairs; start += batch) {
      const opened = await Promise.all(
        Array.from({ length: Math.min(batch, pairs - start) }, () =>
          sessions.open(account!, appId, { userAgent: null, clientAddress: null }),
        ),
      );
      await Promise.all(
        opened.map(async (session, i) => {
          const { accessToken, refreshToken } = session.data.attributes;
          const logout = () => ctx.get('/v1/api/oauth/token/revoke', ctx.bearer(accessToken));
          // Refresh is one SQL statement on its hot path and wins most plain start races, so
          // on half the pairs logout gets a head start of 0-100% of its recent duration
          // (adapts to the machine's load): both outcomes and the close races in between.
          const n = start + i;
          const timedLogout = async () => {
            const t0 = performance.now();
            const res = await logout();
            logoutMs = 0.8 * logoutMs + 0.2 * (performance.now() - t0);
            return res;
          };
          const [r, l] =
            n % 2 === 0
              ? await Promise.all([refresh(refreshToken), timedLogout()])
              : await Promise.all([
                  timedLogout(),
                  sleep((logoutMs * ((n >> 1) % 6)) / 5).then(() => refresh(refreshToken)),
                ]).then(([a, b]) => [b, a]);
          if (l.statusCode !== 200) violations.push(`logout answered ${l.statusCode}`);
          if (r.statusCode !== 200) {
            outcomes.logoutWon++;
            return;
          }
          outcomes.refreshWon++;
          const issued = tokensOf(r.json());
          const [access, again] = await Promise.all([
            info(issued.accessToken),
            refresh(issued.refreshToken),
          ]);
          if (access.statusCode !== 401) violations.push(`access token accepted after logout`);
          if (again.statusCode !== 401) violations.push(`refresh token accepted after logout`);
        }),
      );
    }
    expect(violations).toEqual([]);
    expect(outcomes.refreshWon + outcomes.logoutWon).toBe(pairs);
    // Both orders really happened, or the test proved little.
    expect(outcomes.refreshWon).toBeGreaterThan(0);
    expect(outcomes.logoutWon).toBeGreaterThan(0);
  }, 180_000);

  it('re-checks the user on the single-statement path: a changed profile is answered, a disabled account refused', async () => {
    const session = await registerActive(ctx);
    const hints = ctx.app.get(RefreshHints);
    const hashOf = (t: string) => ctx.app.get(TokenService).hashRefreshToken(t);
    expect(hints.take(hashOf(session.refreshToken))).toBeDefined(); // issued here: hinted
    hints.remember(hashOf(session.refreshToken), {
      familyId: await familyOf(session.accessToken),
      appId: (await ctx.db.query<{ id: string }[]>('SELECT id FROM client_application'))[0].id,
      tokenGeneration: 0,
      familyGeneration: 0,
      user: {
        id: session.userId,
        email: session.email,
        phone: null,
        firstName: '',
        lastName: '',
        status: 'active',
      },
    });
    await ctx.db.query(`UPDATE app_user SET first_name = 'Ada' WHERE id = $1`, [session.userId]);
    const lookup = jest.spyOn(ctx.app.get(SessionsRepository), 'findByTokenHash');
    const renamed = await refresh(session.refreshToken);
    const lookups = lookup.mock.calls.length;
    lookup.mockRestore();
    expect(lookups).toBe(1); // the hinted rotation matched nothing: full path
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().data.attributes.firstName).toBe('Ada');
    const next = tokensOf(renamed.json());
    expect(hints.size).toBeGreaterThan(0);
    await ctx.db.query(`UPDATE app_user SET status = 'disabled' WHERE id = $1`, [session.userId]);
    const refused = await refresh(next.refreshToken);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().errors[0].code).toBe('REFRESH_TOKEN_INVALID');
    expect((await family(await familyOf(session.accessToken))).generation).toBe(1);
  });

  it('rotates on the single-statement path, without the lookup, for an account without email (phone only)', async () => {
    const userId = randomUUID();
    const phone = `+1415555${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;
    await ctx.db.query(
      `INSERT INTO app_user (id, email, phone, username_key, password_hash, status, first_name, last_name)
       VALUES ($1, NULL, $2, $2, 'x', 'active', 'Grace', 'Hopper')`,
      [userId, phone],
    );
    const appId = (await ctx.db.query<{ id: string }[]>('SELECT id FROM client_application'))[0].id;
    const account = await ctx.app.get(UsersRepository).findById(userId);
    const opened = await ctx.app.get(SessionsService).open(account!, appId, {
      userAgent: null,
      clientAddress: null,
    });
    const lookup = jest.spyOn(ctx.app.get(SessionsRepository), 'findByTokenHash');
    try {
      const first = await refresh(opened.data.attributes.refreshToken);
      expect(first.statusCode).toBe(200);
      expect(first.json().data.attributes).toMatchObject({
        email: '',
        firstName: 'Grace',
        lastName: 'Hopper',
      });
      const second = await refresh(tokensOf(first.json()).refreshToken);
      expect(second.statusCode).toBe(200);
      expect(lookup).not.toHaveBeenCalled(); // both rotations were one statement each
      expect((await family(await familyOf(tokensOf(second.json()).accessToken))).generation).toBe(
        2,
      );
    } finally {
      lookup.mockRestore();
    }
  });

  it('rotates a token this process holds no hint for (another replica issued it), then hints the new one', async () => {
    const session = await registerActive(ctx);
    const hints = ctx.app.get(RefreshHints);
    const hashOf = (t: string) => ctx.app.get(TokenService).hashRefreshToken(t);
    expect(hints.take(hashOf(session.refreshToken))).toBeDefined();
    const res = await refresh(session.refreshToken);
    expect(res.statusCode).toBe(200);
    const next = tokensOf(res.json());
    expect(hints.take(hashOf(next.refreshToken))).toMatchObject({
      familyId: await familyOf(session.accessToken),
      user: { id: session.userId, email: session.email },
    });
    expect((await refresh(next.refreshToken)).statusCode).toBe(200);
    // the replay decision is unaffected: the first token again is re-use
    const replay = await refresh(session.refreshToken);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().errors[0].code).toBe('REFRESH_TOKEN_REUSED');
  });

  it('refuses unknown and malformed refresh tokens with 401, a missing one with 400', async () => {
    const unknown = await refresh('rt_' + 'A'.repeat(43));
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().errors[0].code).toBe('REFRESH_TOKEN_INVALID');
    const malformed = await refresh('rt_abc$%def');
    expect(malformed.statusCode).toBe(401);
    expect(malformed.json().errors[0].code).toBe('TOKEN_MALFORMED');
    const missing = await ctx.post('/v1/api/oauth/token/refresh', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors[0].source).toEqual({ pointer: '/refresh_token' });
  });

  it('refuses a refresh token whose family expired', async () => {
    const session = await registerActive(ctx);
    await ctx.db.query(
      `UPDATE refresh_token_family SET expires_at = now() - interval '1 second' WHERE id = $1`,
      [await familyOf(session.accessToken)],
    );
    const res = await refresh(session.refreshToken);
    expect(res.statusCode).toBe(401);
    expect(res.json().errors[0].code).toBe('REFRESH_TOKEN_INVALID');
  });

  it('refuses refresh after logout, within the grace window too', async () => {
    const session = await registerActive(ctx);
    const next = tokensOf((await refresh(session.refreshToken)).json());
    const logout = await ctx.get('/v1/api/oauth/token/revoke', ctx.bearer(next.accessToken));
    expect(logout.statusCode).toBe(200);
    await expectDead([session, next]);
  });
});
