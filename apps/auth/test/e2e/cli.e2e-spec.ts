import { runCli } from '../../src/applications.cli.js';
import { startAuthTestApp, type AuthTestContext } from '../support/auth-test-app.js';

describe('operator CLI: npm run cli -- apps:create NAME', () => {
  let ctx: AuthTestContext;
  beforeAll(async () => {
    ctx = await startAuthTestApp();
  });
  afterAll(() => ctx.close());

  const run = async (argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, {
      env: ctx.env.env,
      out: (t) => out.push(t),
      err: (t) => err.push(t),
    });
    return { code, out: out.join(''), err: err.join('') };
  };

  it('creates an application whose new key is accepted at once', async () => {
    const { code, out } = await run(['apps:create', 'Mobile', 'app']);
    expect(code).toBe(0);
    const key = /Api-Key \(shown once, store it now\): (\S+)/.exec(out)?.[1];
    expect(key).toMatch(/^wpk_[A-Za-z0-9_-]{43}$/);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v1/api/oauth/token',
      headers: { 'api-key': key! },
      payload: { username: 'nobody@example.com', password: 'whatever1' },
    });
    expect(res.statusCode).toBe(401); // past the Api-Key guard: credentials are what fail
  });

  it('lists applications without showing keys', async () => {
    const { code, out } = await run(['apps:list']);
    expect(code).toBe(0);
    expect(out).toContain('Mobile app');
    expect(out).toContain('bootstrap');
    expect(out).not.toMatch(/wpk_[A-Za-z0-9_-]{43}/);
  });

  it('answers usage errors with exit code 2', async () => {
    expect((await run(['apps:create'])).code).toBe(2);
    expect((await run(['nonsense'])).code).toBe(2);
  });
});
