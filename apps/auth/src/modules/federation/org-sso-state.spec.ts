import type { RequestMeta } from '@wp/http';
import type { EventBus } from '@wp/messaging';
import type { TxHost } from '@wp/persistence';
import type { AuthAudit, UserAuditEvent } from '../audit/auth-audit.js';
import { SsoRequiredError } from './federation.errors.js';
import { OrgSsoState } from './org-sso-state.js';
import type { SsoRequiredSessions } from './sso-required-sessions.js';

/** Auth's replica of organizations' domains as `realmOf` reads it: domain → its row. */
type Row = { organization_id: number; sso_required: boolean; slug: string | null };

function state(domains: Record<string, Row>) {
  const recorded: UserAuditEvent[] = [];
  const txHost = {
    tx: {
      query: (_sql: string, [domain]: [string]) =>
        Promise.resolve(domains[domain] ? [domains[domain]] : []),
    },
  } as unknown as TxHost;
  const audit = {
    record: (event: UserAuditEvent) => {
      recorded.push(event);
      return Promise.resolve();
    },
  } as unknown as AuthAudit;
  const sso = new OrgSsoState(txHost, {} as EventBus, {} as SsoRequiredSessions, audit);
  return { sso, recorded };
}

const META: RequestMeta = { clientAddress: '192.0.2.1', requestId: 'r1', userAgent: 'test' };
const USER = { id: 'u1', email: 'pat@acme.test' };

/** The one "organization requires SSO" rule every way in asks (docs/auth.md § Organization single sign-on). */
describe('OrgSsoState refusal and assertAllowed', () => {
  const domains: Record<string, Row> = {
    'acme.test': { organization_id: 7, sso_required: true, slug: 'org-7' },
    'open.test': { organization_id: 8, sso_required: false, slug: null },
  };

  it('refuses an address at a domain whose organization requires SSO, naming its connection', async () => {
    const { sso } = state(domains);
    const refusal = await sso.refusal('Pat@ACME.test');
    expect(refusal).toBeInstanceOf(SsoRequiredError);
    expect(refusal).toMatchObject({ status: 403, code: 'SSO_REQUIRED', domain: 'acme.test' });
    expect(refusal?.meta).toEqual({ connection: 'org-7', domain: 'acme.test' });
  });

  it("allows other domains, non-addresses, and the organization's own connection", async () => {
    const { sso } = state(domains);
    expect(await sso.refusal('pat@open.test')).toBeNull();
    expect(await sso.refusal('pat@nowhere.test')).toBeNull();
    expect(await sso.refusal('+14155550123')).toBeNull();
    expect(await sso.refusal(null)).toBeNull();
    expect(await sso.refusal('pat@acme.test', 7)).toBeNull();
    expect(await sso.refusal('pat@acme.test', 8)).toBeInstanceOf(SsoRequiredError);
  });

  it('throws the refusal, auditing the refused sign-in only when asked to', async () => {
    const { sso, recorded } = state(domains);
    await expect(
      sso.assertAllowed('pat@open.test', { user: USER, meta: META, method: 'passkey' }),
    ).resolves.toBeUndefined();
    await expect(sso.assertAllowed('pat@acme.test')).rejects.toBeInstanceOf(SsoRequiredError);
    expect(recorded).toEqual([]);
    await expect(
      sso.assertAllowed('pat@acme.test', { user: USER, meta: META, method: 'passkey' }),
    ).rejects.toMatchObject({ code: 'SSO_REQUIRED' });
    expect(recorded).toEqual([
      {
        action: 'user.signed_in',
        outcome: 'failure',
        user: USER,
        meta: META,
        details: { method: 'passkey', reason: 'sso_required' },
      },
    ]);
  });
});
