import { waitFor } from '@wp/testing';
import { DataSource } from 'typeorm';
import { clientPkce } from '../support/oidc-sign-in.js';
import { OidcSignInWorld } from '../support/oidc-sign-in-world.js';

/** Low, so the last test can use it up; the sign-ins before it stay well below. */
const SIGN_IN_LIMIT = 12;

interface ErrorBody {
  errors: { code: string }[];
}

/**
 * Provider sign-in, what is recorded and what is limited (docs/auth.md § Sign-in with an OpenID
 * provider, "Audit" and "Rate limits"), with a real provider and Chromium through the gateway:
 * identities linked and unlinked reach the audit log of the account's organizations; operators'
 * connection changes are audited in auth's `operator_audit_log`; the browser routes answer a
 * JSON:API 429 per client address.
 */
describe('sign-in with an OpenID provider: audit and rate limits', () => {
  let world: OidcSignInWorld;

  beforeAll(async () => {
    world = await OidcSignInWorld.start(
      {
        carol: { email: 'carol@example.com', email_verified: true, name: 'Carol Lewis' },
        // Another subject with Carol's verified e-mail: links to her account (no password).
        carolAgain: { email: 'carol@example.com', email_verified: true, name: 'Carol Lewis' },
      },
      { OIDC_SIGN_IN_RATE_LIMIT: String(SIGN_IN_LIMIT) },
    );
  }, 120_000);
  afterAll(() => world?.close());

  it('records provider identities linked and unlinked in the audit log of the account’s organizations', async () => {
    const { stack } = world;
    const first = await world.signIn('test', 'carol');
    const session = await world.exchange(first.params.get('code')!, first.pkce.verifier);
    expect(session.status).toBe(200);
    const token = session.body.data.attributes.accessToken as string;
    const org = await stack.request('POST', '/v1/api/organizations', {
      token,
      body: { data: { type: 'organization', attributes: { name: 'Carol Co' } } },
    });
    expect(org.status).toBe(200);
    const orgId = org.body.data.id as string;

    const linked = await world.signIn('test', 'carolAgain');
    expect(linked.params.get('code')).toMatch(/^oac_/);
    const identities = await stack.request('GET', '/v1/api/users/me/identities', { token });
    expect(identities.body.data).toHaveLength(2);
    const carolFirst = identities.body.data.find(
      (i: { attributes: { subject: string } }) => i.attributes.subject === 'carol',
    );
    const unlinked = await stack.request('DELETE', `/v1/api/users/me/identities/${carolFirst.id}`, {
      token,
    });
    expect(unlinked.status).toBe(204);

    const entries = await waitFor(
      async () => {
        const log = await stack.request('GET', `/v1/api/organizations/${orgId}/audit_log`, {
          token,
        });
        const data = (log.body.data ?? []) as {
          attributes: { action: string; target: { id: string } | null; details: object };
        }[];
        return data.some((e) => e.attributes.action === 'user.identity_unlinked')
          ? data
          : undefined;
      },
      { timeoutMs: 5000, what: 'the identity entries in the audit log' },
    );
    const byAction = (action: string) => entries.filter((e) => e.attributes.action === action);
    // (The entry of her account's creation may arrive too, if org applies it after the
    // organization exists: only the link is asserted.)
    const links = byAction('user.identity_linked').filter(
      (e) => (e.attributes.details as { account?: string }).account === 'linked',
    );
    expect(links).toHaveLength(1);
    expect(links[0].attributes.details).toMatchObject({ connection: 'test' });
    expect(byAction('user.identity_unlinked')[0].attributes.target).toMatchObject({
      id: carolFirst.id,
    });
  }, 60_000);

  it('audits connection changes through the Admin-Access API, never the secret', async () => {
    const connection = await world.createConnection('audited');
    const changed = await world.admin('PATCH', `/v1/api/oauth/connections/${connection.id}`, {
      name: 'Audited again',
      clientSecret: 'a-new-secret-never-audited',
    });
    expect(changed.status).toBe(200);
    const off = await world.admin('PATCH', `/v1/api/oauth/connections/${connection.id}`, {
      enabled: false,
    });
    expect(off.status).toBe(200);
    const unknown = await world.admin(
      'PATCH',
      '/v1/api/oauth/connections/00000000-0000-4000-8000-000000000000',
      { enabled: false },
    );
    expect(unknown.status).toBe(404);

    const auth = world.stack.apps.get('auth')!.get(DataSource);
    const rows = await auth.query<Record<string, unknown>[]>(
      `SELECT action, actor_type, actor_id, target_label, request_id, details
         FROM operator_audit_log WHERE target_id = $1 ORDER BY occurred_at`,
      [connection.id],
    );
    expect(rows).toEqual([
      expect.objectContaining({
        action: 'oidc_connection.created',
        actor_type: 'admin_access',
        actor_id: null,
        target_label: 'audited',
        request_id: expect.any(String),
      }),
      expect.objectContaining({
        action: 'oidc_connection.changed',
        details: { changed: 'name,clientSecret' },
      }),
      expect.objectContaining({
        action: 'oidc_connection.disabled',
        details: { changed: 'enabled' },
      }),
    ]);
    // Nothing for the refused change, and the secret appears nowhere.
    const all = await auth.query<{ n: string }[]>(
      `SELECT count(*) AS n FROM operator_audit_log
        WHERE target_id = '00000000-0000-4000-8000-000000000000'
           OR row_to_json(operator_audit_log)::text LIKE '%never-audited%'`,
    );
    expect(Number(all[0].n)).toBe(0);
  });

  it('audits redirect URI changes and reads operator changes back, newest first, paged', async () => {
    const path = `/v1/api/oauth/applications/${world.appId}/redirect_uris`;
    const before = await world.admin('GET', '/v1/api/oauth/operator_audit_log?limit=100');
    expect(before.status).toBe(200);
    const current = world.client.redirectUri;
    const extra = 'https://app.example.com/callback';
    expect((await world.admin('PUT', path, { redirectUris: [current, extra] })).status).toBe(200);
    // The same URIs again: stored, not audited.
    expect((await world.admin('PUT', path, { redirectUris: [extra, current] })).status).toBe(200);
    expect((await world.admin('PUT', path, { redirectUris: [current] })).status).toBe(200);

    type Entry = {
      type: string;
      id: string;
      attributes: {
        action: string;
        actor: { type: string; id: string | null };
        target: { type: string; id: string };
        requestId: string | null;
        details: Record<string, unknown>;
      };
    };
    const all = await world.admin('GET', '/v1/api/oauth/operator_audit_log?limit=100');
    expect(all.status).toBe(200);
    const entries = all.body.data as Entry[];
    expect(entries.length).toBe((before.body.data as Entry[]).length + 2);
    expect(entries.slice(0, 2).map((e) => e.attributes)).toEqual([
      expect.objectContaining({
        action: 'client_application.redirect_uris_changed',
        actor: { type: 'admin_access', id: null },
        target: expect.objectContaining({ type: 'client_application', id: world.appId }),
        requestId: expect.any(String),
        details: { added: '', removed: extra, count: 1 },
      }),
      expect.objectContaining({
        action: 'client_application.redirect_uris_changed',
        details: { added: extra, removed: '', count: 2 },
      }),
    ]);
    expect(entries[0].type).toBe('operator_audit_entry');

    // Keyset pages of one: the same entries in the same order, then no next page.
    const paged: Entry[] = [];
    let next: string | null = '/v1/api/oauth/operator_audit_log?limit=1';
    while (next) {
      const page = await world.admin('GET', next);
      expect(page.status).toBe(200);
      paged.push(...(page.body.data as Entry[]));
      next = page.body.links.next as string | null;
      if (next) expect(next).toMatch(/^\/v1\/api\/oauth\/operator_audit_log\?limit=1&cursor=/);
    }
    expect(paged.map((e) => e.id)).toEqual(entries.map((e) => e.id));

    // Operators only, and a cursor must be one of ours.
    const anonymous = await world.stack.request('GET', '/v1/api/oauth/operator_audit_log');
    expect(anonymous.status).toBe(403);
    expect((anonymous.body as ErrorBody).errors[0].code).toBe('ADMIN_ACCESS_REQUIRED');
    const forged = Buffer.from('yesterday|not-a-uuid').toString('base64url');
    const bad = await world.admin('GET', `/v1/api/oauth/operator_audit_log?cursor=${forged}`);
    expect(bad.status).toBe(400);
    expect((await world.admin('GET', '/v1/api/oauth/operator_audit_log?limit=0')).status).toBe(400);
  });

  // Last: it uses up this client address's allowance on both browser routes.
  it('rate limits the browser routes per client address with a JSON:API 429, never a redirect', async () => {
    const limited = async (url: string) => {
      for (let i = 0; i <= 2 * SIGN_IN_LIMIT + 1; i++) {
        const res = await fetch(url, { redirect: 'manual' });
        if (res.status === 429) return res;
        expect([302, 400]).toContain(res.status);
      }
      throw new Error(`never rate limited: ${url}`);
    };
    const authorize = await limited(world.authorizeUrl('test', clientPkce()));
    expect(authorize.headers.get('location')).toBeNull();
    expect(Number(authorize.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await authorize.json()) as ErrorBody).errors[0].code).toBe('RATE_LIMITED');

    const callback = await limited(`${world.stack.gatewayUrl}/v1/api/oauth/callback?state=x`);
    expect(callback.headers.get('location')).toBeNull();
    expect(Number(callback.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await callback.json()) as ErrorBody).errors[0].code).toBe('RATE_LIMITED');
  });
});
