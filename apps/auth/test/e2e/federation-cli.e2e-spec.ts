import { runCli } from '../../src/applications.cli.js';
import { startAuthTestApp, type AuthTestContext } from '../support/auth-test-app.js';

describe('operator CLI: OpenID Connect connections and redirect URIs', () => {
  let ctx: AuthTestContext;
  beforeAll(async () => {
    ctx = await startAuthTestApp();
  });
  afterAll(() => ctx.close());

  const run = async (argv: string[], env: Record<string, string> = {}) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, {
      env: { ...ctx.env.env, ...env },
      out: (t) => out.push(t),
      err: (t) => err.push(t),
    });
    return { code, out: out.join(''), err: err.join('') };
  };

  it('creates, lists, disables and enables a connection, its secret sealed and never printed', async () => {
    const secret = 'cli-secret-never-printed';
    const created = await run(
      ['connections:create', 'corp', 'https://idp.example.com', 'platform-client', '--json'],
      { OIDC_CLIENT_SECRET: secret },
    );
    expect(created.code).toBe(0);
    expect(JSON.parse(created.out)).toMatchObject({ slug: 'corp', enabled: true });
    const [row] = await ctx.db.query<{ sealed: string }[]>(
      `SELECT client_secret_sealed AS sealed FROM oidc_connection WHERE slug = 'corp'`,
    );
    expect(row.sealed).toMatch(/^v\d+\./);
    expect(row.sealed).not.toContain(secret);

    const disabled = await run(['connections:disable', 'corp', '--json']);
    expect(JSON.parse(disabled.out).enabled).toBe(false);
    const list = await run(['connections:list']);
    expect(list.out).toContain('corp  disabled');
    expect(list.out).not.toContain(secret);
    expect((await run(['connections:enable', 'corp'])).code).toBe(0);
    expect((await run(['connections:disable', 'nope'])).code).toBe(1);
  });

  it('audits each connection change with the operating-system user, in the change’s transaction', async () => {
    const created = await run(
      ['connections:create', 'audited', 'https://idp.example.com', 'c', '--json'],
      { OIDC_CLIENT_SECRET: 'audited-secret', USER: 'ops-alice' },
    );
    expect(created.code).toBe(0);
    const id = JSON.parse(created.out).id as string;
    expect((await run(['connections:disable', 'audited'], { USER: 'ops-bob' })).code).toBe(0);
    expect((await run(['connections:enable', 'audited'], { USER: 'ops-bob' })).code).toBe(0);
    // A refused change writes nothing.
    const taken = await run(['connections:create', 'audited', 'https://idp.example.com', 'c'], {
      OIDC_CLIENT_SECRET: 's',
    });
    expect(taken.code).toBe(1);
    const rows = await ctx.db.query<Record<string, unknown>[]>(
      `SELECT action, actor_type, actor_id, target_type, target_label, details
         FROM operator_audit_log WHERE target_id = $1 ORDER BY occurred_at, action`,
      [id],
    );
    expect(rows).toEqual([
      {
        action: 'oidc_connection.created',
        actor_type: 'cli',
        actor_id: 'ops-alice',
        target_type: 'oidc_connection',
        target_label: 'audited',
        details: { issuer: 'https://idp.example.com', enabled: true },
      },
      expect.objectContaining({
        action: 'oidc_connection.disabled',
        actor_id: 'ops-bob',
        details: { changed: 'enabled' },
      }),
      expect.objectContaining({ action: 'oidc_connection.enabled', actor_id: 'ops-bob' }),
    ]);
    const all = await ctx.db.query<{ n: string }[]>(
      `SELECT count(*) AS n FROM operator_audit_log WHERE details::text LIKE '%audited-secret%'`,
    );
    expect(Number(all[0].n)).toBe(0);
  });

  it('refuses a connection without a secret or with a bad slug', async () => {
    expect((await run(['connections:create', 'x', 'https://idp.example.com', 'c'])).code).toBe(1);
    expect(
      (
        await run(['connections:create', 'Bad Slug!', 'https://idp.example.com', 'c'], {
          OIDC_CLIENT_SECRET: 's',
        })
      ).code,
    ).toBe(1);
    expect((await run(['connections:create', 'only-slug'])).code).toBe(2);
  });

  it('sets the redirect URIs of an application, refusing fragments and unknown ids', async () => {
    const [app] = await ctx.db.query<{ id: string }[]>(
      `SELECT id FROM client_application WHERE name = 'bootstrap'`,
    );
    const set = await run(['apps:redirect-uris', app.id, 'https://app.example.com/cb', '--json'], {
      USER: 'ops-carol',
    });
    expect(set.code).toBe(0);
    expect(JSON.parse(set.out).redirectUris).toEqual(['https://app.example.com/cb']);
    // Audited with the operating-system user, in the change's transaction.
    const audited = await ctx.db.query<Record<string, unknown>[]>(
      `SELECT action, actor_type, actor_id, target_type, details
         FROM operator_audit_log WHERE target_id = $1`,
      [app.id],
    );
    expect(audited).toEqual([
      {
        action: 'client_application.redirect_uris_changed',
        actor_type: 'cli',
        actor_id: 'ops-carol',
        target_type: 'client_application',
        details: { added: 'https://app.example.com/cb', removed: '', count: 1 },
      },
    ]);
    expect((await run(['apps:redirect-uris', app.id, 'https://app.example.com/cb#x'])).code).toBe(
      1,
    );
    expect(
      (await run(['apps:redirect-uris', '00000000-0000-4000-8000-000000000000', 'https://a.b/c']))
        .code,
    ).toBe(1);
  });
});
