import { call, signUp } from './world.js';
import { status, type Action, type MixContext } from './mix-kit.js';

/**
 * Accounts and sessions: token info, refreshes (round robin, so every seeded user's tokens stay
 * fresh), logins, email validation, the session list, and new sign-ups (new tenants all the time).
 */
export function accountActions(ctx: MixContext): Action[] {
  const { gw, accounts, pick, get } = ctx;
  let refreshTurn = 0;
  let signUps = 0;
  return [
    {
      name: 'token info',
      weight: 8,
      run: async () => status(200)(await get(pick(), '/oauth/token/info')),
    },
    {
      name: 'refresh',
      weight: 3,
      run: async () => {
        const a = accounts[refreshTurn++ % accounts.length];
        const res = await call(gw, 'POST', '/oauth/token/refresh', {
          body: { refresh_token: a.refreshToken },
        });
        if (res.status !== 200) return `HTTP ${res.status}`;
        a.token = res.json.data.attributes.accessToken;
        a.refreshToken = res.json.data.attributes.refreshToken;
        return true;
      },
    },
    {
      name: 'login',
      weight: 1,
      run: async () => {
        const a = pick();
        const body = { username: a.email, password: a.password };
        return status(200)(await call(gw, 'POST', '/oauth/token', { body }));
      },
    },
    {
      name: 'validate email',
      weight: 1,
      run: async () =>
        status(200)(
          await call(gw, 'GET', `/users/validate/email?email=${encodeURIComponent(pick().email)}`),
        ),
    },
    {
      name: 'sessions',
      weight: 0.5,
      run: async () => status(200)(await get(pick(), '/users/me/sessions')),
    },
    {
      name: 'sign-up (3 requests)',
      weight: 0.5,
      run: async () => {
        await signUp(gw, `new${signUps++}`);
        return true;
      },
    },
  ];
}
