import { randomUUID } from 'node:crypto';
import { startAuthTestApp, type AuthTestContext } from '../support/auth-test-app.js';
import { countRows, registerActive, tokensOf } from '../support/flows.js';
import { SessionPurgeRepository } from '../../src/modules/sessions/session-purge.repository.js';
import { SessionsRepository } from '../../src/modules/sessions/sessions.repository.js';
import { TokenService } from '../../src/modules/tokens/token.service.js';

/**
 * How refresh families are stored (docs/auth.md § Benchmark: PostgreSQL rows and gateway work per
 * refresh): rotations are HOT updates (no index covers a column they set), a token hash still
 * identifies one family without a UNIQUE constraint on the current hash, and the purge still
 * forgets the sealed grace pairs once their window closed.
 */
describe('auth: refresh family storage', () => {
  let ctx: AuthTestContext;
  let sessions: SessionsRepository;
  let purges: SessionPurgeRepository;
  let hashOf: (token: string) => string;

  beforeAll(async () => {
    ctx = await startAuthTestApp({ AUTH_EMAIL_ACTIVATION_REQUIRED: 'false' });
    sessions = ctx.app.get(SessionsRepository);
    purges = ctx.app.get(SessionPurgeRepository);
    const tokens = ctx.app.get(TokenService);
    hashOf = (token) => tokens.hashRefreshToken(token);
  });
  afterAll(() => ctx.close());

  const refresh = async (refreshToken: string) => {
    const res = await ctx.post('/v1/api/oauth/token/refresh', { refresh_token: refreshToken });
    expect(res.statusCode).toBe(200);
    return tokensOf(res.json());
  };
  const sidOf = async (accessToken: string) =>
    (await ctx.get('/v1/api/oauth/token/info', ctx.bearer(accessToken))).json<{ sid: string }>()
      .sid;
  const familyRow = async (sid: string) =>
    (
      await ctx.db.query<{ generation: number; grace: boolean; current_token_hash: string }[]>(
        `SELECT generation, grace_response IS NOT NULL AS grace, current_token_hash
           FROM refresh_token_family WHERE id = $1`,
        [sid],
      )
    )[0];

  it('indexes no column a rotation sets, so rotations can be HOT updates', async () => {
    const rows = await ctx.db.query<{ index: string; definition: string }[]>(
      `SELECT c.relname AS index, pg_get_indexdef(i.indexrelid) AS definition
         FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE i.indrelid = 'refresh_token_family'::regclass`,
    );
    const rotated = [
      'current_token_hash',
      'generation',
      'rotated_at',
      'grace_response',
      'last_used_at',
      'last_user_agent',
      'last_client_address',
    ];
    const offending = rows.filter((r) => rotated.some((column) => r.definition.includes(column)));
    expect(offending).toEqual([]);
    const [table] = await ctx.db.query<{ options: string[] | null }[]>(
      `SELECT reloptions AS options FROM pg_class WHERE oid = 'refresh_token_family'::regclass`,
    );
    expect(table.options).toContain('fillfactor=70');
  });

  it('refuses a session or a rotation whose token hash was issued before, changing nothing', async () => {
    const a = await registerActive(ctx);
    const b = await registerActive(ctx);
    const aSid = await sidOf(a.accessToken);
    const bSid = await sidOf(b.accessToken);
    const aNext = await refresh(a.refreshToken);
    const issuedBefore = hashOf(a.refreshToken); // a's first token: no longer any family's current
    const families = await countRows(ctx, 'refresh_token_family');

    const now = new Date();
    await expect(
      sessions.insert({
        id: randomUUID(),
        userId: b.userId,
        appId: (
          await ctx.db.query<{ app_id: string }[]>(
            'SELECT app_id FROM refresh_token_family WHERE id = $1',
            [bSid],
          )
        )[0].app_id,
        currentTokenHash: issuedBefore,
        expiresAt: new Date(now.getTime() + 3_600_000),
        createdAt: now,
        lastUserAgent: null,
        lastClientAddress: null,
      }),
    ).rejects.toThrow(/duplicate key/);
    expect(await countRows(ctx, 'refresh_token_family')).toBe(families);

    const bBefore = await familyRow(bSid);
    const [bApp] = await ctx.db.query<{ app_id: string }[]>(
      'SELECT app_id FROM refresh_token_family WHERE id = $1',
      [bSid],
    );
    await expect(
      sessions.rotate({
        familyId: bSid,
        appId: bApp.app_id,
        user: { id: b.userId, email: b.email, firstName: '', lastName: '' },
        currentHash: bBefore.current_token_hash,
        newHash: hashOf(aNext.refreshToken), // a's current token
        sealedResponse: null,
        client: { userAgent: null, clientAddress: null },
      }),
    ).rejects.toThrow(/duplicate key/);
    expect(await familyRow(bSid)).toEqual(bBefore);
    expect((await familyRow(aSid)).current_token_hash).toBe(hashOf(aNext.refreshToken));
  });

  it('purges sealed pairs whose grace window closed: all at first, then rotations in the look-back', async () => {
    const rotatedAgo = async (seconds: number) => {
      const s = await registerActive(ctx);
      const sid = await sidOf(s.accessToken);
      await refresh(s.refreshToken);
      await ctx.db.query(
        `UPDATE refresh_token_family SET rotated_at = rotated_at - make_interval(secs => $2)
          WHERE id = $1`,
        [sid, seconds],
      );
      await ctx.db.query(
        `UPDATE refresh_token SET issued_at = issued_at - make_interval(secs => $2)
          WHERE family_id = $1 AND generation = 1`,
        [sid, seconds],
      );
      expect((await familyRow(sid)).grace).toBe(true);
      return sid;
    };
    const grace = 20;

    // The first purge of a process reads every family.
    const long = await rotatedAgo(7_200);
    const fresh = await rotatedAgo(0);
    await purges.purge(grace, null);
    expect((await familyRow(long)).grace).toBe(false);
    expect((await familyRow(fresh)).grace).toBe(true);

    // Later ones: rotations issued within the look-back before the window closed.
    const closed = await rotatedAgo(60);
    const beyond = await rotatedAgo(7_200);
    await purges.purge(grace, 600);
    expect((await familyRow(closed)).grace).toBe(false);
    expect((await familyRow(fresh)).grace).toBe(true);
    expect((await familyRow(beyond)).grace).toBe(true);
  });
});
