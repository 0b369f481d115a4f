import { IS_PUBLIC, NO_API_KEY } from '@wp/http';
import { auditRoutes } from '@wp/testing';
import { startAuthTestApp, type AuthTestContext } from '../support/auth-test-app.js';

/**
 * Every auth route needs Api-Key + bearer token except the contract's header set K
 * (docs/api.md § Endpoints) and the infrastructure routes. A route added without a decision fails
 * here.
 */
describe('auth route access', () => {
  let ctx: AuthTestContext;
  beforeAll(async () => {
    ctx = await startAuthTestApp();
  });
  afterAll(() => ctx.close());

  it('marks exactly the header-set-K routes public and only infrastructure keyless', () => {
    const routes = auditRoutes(ctx.app, { isPublic: IS_PUBLIC, noApiKey: NO_API_KEY });
    const keyless = routes.filter((r) => r.noApiKey).map((r) => r.route);
    const publicOnly = routes.filter((r) => r.isPublic && !r.noApiKey).map((r) => r.route);
    expect(keyless.sort()).toEqual([
      'GET /health/live',
      'GET /health/ready',
      'GET /oauth/authorize',
      'GET /oauth/callback',
      'GET /oauth/jwks.json',
    ]);
    expect(publicOnly.sort()).toEqual(
      [
        'POST /oauth/token',
        'POST /oauth/token/refresh',
        'POST /oauth/token/mfa',
        'POST /oauth/passkey/options',
        'POST /oauth/token/passkey',
        'POST /users',
        'POST /users/:userId/activate/email',
        'POST /users/:userId/activate/phone',
        'POST /users/:userId/resend_activation',
        'GET /users/validate/email',
        'GET /users/validate/phone',
        'POST /users/password/reset_request',
        'POST /users/password/reset',
        // Operators' routes: Api-Key + Admin-Access (AdminAccessGuard), no user token.
        'POST /oauth/connections',
        'GET /oauth/connections',
        'PATCH /oauth/connections/:connectionId',
        'PUT /oauth/applications/:appId/redirect_uris',
        'GET /oauth/operator_audit_log',
        // Home-realm discovery: a sign-in page asks it before anyone is signed in
        // (docs/auth.md § Organization single sign-on).
        'GET /oauth/discovery',
      ].sort(),
    );
    const guarded = routes.filter((r) => !r.isPublic && !r.noApiKey).map((r) => r.route);
    expect(guarded).toEqual(
      expect.arrayContaining([
        'GET /oauth/token/revoke',
        'GET /oauth/token/info',
        'GET /oauth/organizations/:organizationId/connection',
        'PUT /oauth/organizations/:organizationId/connection',
        'POST /users/password/change',
        'GET /users/me/two_factor',
        'POST /users/me/two_factor',
        'POST /users/me/two_factor/confirm',
        'POST /users/me/two_factor/disable',
        'POST /users/me/two_factor/recovery_codes',
        'GET /users/me/sessions',
        'DELETE /users/me/sessions',
        'DELETE /users/me/sessions/:sessionId',
        'GET /users/me/identities',
        'DELETE /users/me/identities/:identityId',
      ]),
    );
  });
});
