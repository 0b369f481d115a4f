import { AUDIT_ACTIONS, AuditEntry, type AuditAction } from '../events/audit.events.js';
import { WEBHOOK_EVENT_CATALOG } from './webhook-catalog.js';
import { webhookEventsFromAudit } from './webhook-from-audit.js';
import type { WebhookEvent } from './webhook-event.js';

const ADMIN = '0b1c2b9e-7d0a-4b8e-9f3c-2a1b0c9d8e7f';
const ADA = '1b1c2b9e-7d0a-4b8e-9f3c-2a1b0c9d8e7f';
/** Stands for every secret a producer might leak: it must never reach a webhook payload. */
const SENTINEL = 'SENTINEL-SECRET-8c1f';

/** An organization entry as org's `AuditTrail.record` stores it (docs/org.md § Audit log). */
function orgEntry(
  action: AuditAction,
  target: AuditEntry['target'],
  details: AuditEntry['details'] = {},
): AuditEntry {
  return AuditEntry.parse({
    id: '6f1c2b9e-7d0a-4b8e-9f3c-2a1b0c9d8e70',
    action,
    outcome: 'success',
    occurredAt: '2026-11-25T10:00:00.123Z',
    organizationId: 3,
    subjectUserId: null,
    actor: { type: 'user', id: ADMIN, email: 'admin@example.com' },
    target,
    clientAddress: '10.0.0.1',
    requestId: 'r1',
    userAgent: 'curl/8',
    details,
  });
}

/** A user-level entry as auth's `AuthAudit.record` publishes it. */
function userEntry(
  action: AuditAction,
  target: AuditEntry['target'] | undefined,
  details: AuditEntry['details'] = {},
): AuditEntry {
  return AuditEntry.parse({
    ...orgEntry(action, null, details),
    organizationId: null,
    subjectUserId: ADA,
    actor: { type: 'user', id: ADA, email: 'ada@example.com' },
    target: target ?? { type: 'user', id: ADA, label: 'ada@example.com' },
  });
}

const ada = { type: 'user', id: ADA, label: 'ada@example.com' };
const only = (events: WebhookEvent[]): WebhookEvent => {
  expect(events).toHaveLength(1);
  return events[0];
};

describe('webhookEventsFromAudit', () => {
  it('member.added: envelope, actor, tenant and the member with their role', () => {
    const event = only(
      webhookEventsFromAudit(orgEntry('member.added', ada, { role: 'MEMBER' }), 3),
    );
    expect(event).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      type: 'member.added',
      version: 1,
      timestamp: '2026-11-25T10:00:00.123Z',
      organization_id: '3',
      project_id: null,
      actor: { type: 'user', id: ADMIN },
      data: { user: { id: ADA, email: 'ada@example.com' }, role: 'MEMBER' },
    });
    // The same entry stored again gives the same id (receivers deduplicate on it).
    expect(
      only(webhookEventsFromAudit(orgEntry('member.added', ada, { role: 'MEMBER' }), 3)).id,
    ).toBe(event.id);
  });

  it('member.role_changed, member.removed and member.left (as removed, reason left)', () => {
    const changed = orgEntry('member.role_changed', ada, { role: 'ADMIN', previousRole: 'MEMBER' });
    expect(only(webhookEventsFromAudit(changed, 3)).data).toEqual({
      user: { id: ADA, email: 'ada@example.com' },
      role: 'ADMIN',
      previous_role: 'MEMBER',
    });
    const removedBy = orgEntry(
      'member.removed',
      { type: 'user', id: ADA, label: null },
      {
        previousRole: 'VIEWER',
      },
    );
    const removed = only(webhookEventsFromAudit(removedBy, 3));
    expect(removed.type).toBe('member.removed');
    expect(removed.data).toEqual({
      user: { id: ADA, email: null },
      previous_role: 'VIEWER',
      reason: 'removed',
    });
    const left = only(
      webhookEventsFromAudit(orgEntry('member.left', ada, { previousRole: 'ADMIN' }), 3),
    );
    expect(left.type).toBe('member.removed');
    expect(left.data['reason']).toBe('left');
  });

  it('project members and project access carry the project (envelope and data)', () => {
    const added = only(
      webhookEventsFromAudit(
        orgEntry('project_member.added', ada, { projectId: 7, role: 'VIEWER' }),
        3,
      ),
    );
    expect(added).toMatchObject({ type: 'project_member.added', project_id: '7' });
    expect(added.data).toEqual({
      project_id: '7',
      user: { id: ADA, email: 'ada@example.com' },
      role: 'VIEWER',
    });
    const self = AuditEntry.parse({
      ...orgEntry('project_member.removed', ada, { projectId: 7, previousRole: 'MEMBER' }),
      actor: { type: 'user', id: ADA, email: null },
    });
    expect(only(webhookEventsFromAudit(self, 3)).data['reason']).toBe('left');
    const denied = orgEntry('project_access.denied', ada, { projectId: 7, role: 'MEMBER' });
    expect(only(webhookEventsFromAudit(denied, 3))).toMatchObject({
      type: 'project_access.denied',
      project_id: '7',
      data: { project_id: '7', role: 'MEMBER' },
    });
    const restored = orgEntry('project_access.restored', ada, {
      projectId: 7,
      role: 'MEMBER',
      previousRole: 'MEMBER',
    });
    expect(only(webhookEventsFromAudit(restored, 3)).type).toBe('project_access.restored');
  });

  it('invitations: id, email, lower-case roles, project', () => {
    const invitation = {
      type: 'invitation',
      id: '2f1c2b9e-7d0a-4b8e-9f3c-2a1b0c9d8e7f',
      label: 'g@example.com',
    };
    for (const action of [
      'invitation.created',
      'invitation.accepted',
      'invitation.rejected',
      'invitation.cancelled',
    ] as const) {
      const entry = orgEntry(action, invitation, {
        orgRole: null,
        projectRole: 'VIEWER',
        projectId: 7,
      });
      expect(only(webhookEventsFromAudit(entry, 3))).toMatchObject({
        type: action,
        project_id: '7',
        data: {
          id: invitation.id,
          email: 'g@example.com',
          org_role: null,
          project_role: 'viewer',
          project_id: '7',
        },
      });
    }
    const resent = orgEntry('invitation.resent', invitation, {
      orgRole: 'ADMIN',
      projectRole: null,
      projectId: null,
    });
    expect(webhookEventsFromAudit(resent, 3)).toEqual([]);
  });

  it('credentials: API keys, LLM keys, Sentinel Passes by id and non-secret label', () => {
    const key = orgEntry(
      'api_key.created',
      { type: 'api_key', id: 'k1', label: 'CI (pk_lf_1)' },
      { projectId: 7 },
    );
    expect(only(webhookEventsFromAudit(key, 3)).data).toEqual({
      id: 'k1',
      project_id: '7',
      label: 'CI (pk_lf_1)',
    });
    const llm = orgEntry(
      'llm_api_key.deleted',
      { type: 'llm_api_key', id: '9', label: 'openai' },
      { projectId: 7 },
    );
    expect(only(webhookEventsFromAudit(llm, 3)).data).toEqual({
      id: '9',
      project_id: '7',
      provider: 'openai',
    });
    for (const action of [
      'sentinel_pass.created',
      'sentinel_pass.rotated',
      'sentinel_pass.revoked',
      'sentinel_pass.activated',
      'sentinel_pass.deleted',
    ] as const) {
      const pass = orgEntry(
        action,
        { type: 'sentinel_pass', id: 'p1', label: 'CI agent' },
        { projectId: 7 },
      );
      expect(only(webhookEventsFromAudit(pass, 3))).toMatchObject({
        type: action,
        project_id: '7',
        data: { title: 'CI agent' },
      });
    }
    expect(
      webhookEventsFromAudit(
        orgEntry('api_key.updated', { type: 'api_key', id: 'k1', label: 'x' }, { projectId: 7 }),
        3,
      ),
    ).toEqual([]);
  });

  it('security policy and an organization wallet credit (transaction.posted, kind credit)', () => {
    const policy = orgEntry(
      'organization.security_policy_changed',
      { type: 'organization', id: '3', label: 'Acme' },
      { requireTwoFactor: true },
    );
    expect(only(webhookEventsFromAudit(policy, 3)).data).toEqual({
      organization_id: '3',
      require_two_factor: true,
    });
    const credit = orgEntry(
      'wallet.credited',
      { type: 'wallet', id: '0xabc', label: 'project 7' },
      {
        amount: '12.5',
        asset: 'CREDITS',
        journalEntryId: '4912d037-0ace-4db0-93fc-117539f42d0f',
        adminAccess: true,
        projectId: 7,
      },
    );
    expect(only(webhookEventsFromAudit(credit, 3))).toMatchObject({
      type: 'transaction.posted',
      project_id: '7',
      data: {
        kind: 'credit',
        to_wallet: '0xabc',
        from_wallet: null,
        amount: 12.5,
        asset: 'CREDITS',
      },
    });
    // A personal wallet's credit (user-level entry): no tenant endpoint gets it.
    const personal = AuditEntry.parse({ ...credit, organizationId: null, subjectUserId: ADA });
    expect(webhookEventsFromAudit(personal, 3)).toEqual([]);
  });

  it('a user-level entry goes to the organization it is stored in, once per organization', () => {
    const enabled = userEntry('user.two_factor_enabled', undefined);
    const in3 = only(webhookEventsFromAudit(enabled, 3));
    const in4 = only(webhookEventsFromAudit(enabled, 4));
    expect(in3).toMatchObject({
      type: 'user.two_factor_enabled',
      organization_id: '3',
      actor: { type: 'user', id: ADA },
    });
    expect(in3.data).toEqual({ user: { id: ADA, email: 'ada@example.com' }, method: null });
    expect(in4.organization_id).toBe('4');
    expect(in4.id).not.toBe(in3.id);
    const disabled = userEntry('user.two_factor_disabled', undefined, { method: 'recovery_code' });
    expect(only(webhookEventsFromAudit(disabled, 3)).data['method']).toBe('recovery_code');
    const ended = userEntry(
      'session.ended',
      { type: 'session', id: 's-1', label: null },
      { current: true },
    );
    expect(only(webhookEventsFromAudit(ended, 3)).data).toEqual({
      user: { id: ADA, email: 'ada@example.com' },
      session_id: 's-1',
      current: true,
    });
    const others = userEntry('session.others_ended', undefined, { sessionsEnded: 2 });
    expect(only(webhookEventsFromAudit(others, 3)).data).toEqual({
      user: { id: ADA, email: 'ada@example.com' },
      sessions_ended: 2,
    });
  });

  it('member.signed_in_with_sso and member.identity_linked: only through an organization’s own connection', () => {
    const viaOrg = (action: AuditAction, details: AuditEntry['details']) =>
      AuditEntry.parse({ ...userEntry(action, undefined, details), organizationId: 3 });
    const signedIn = viaOrg('user.signed_in', {
      method: 'oidc',
      connection: 'org-3',
      account: 'created',
    });
    expect(only(webhookEventsFromAudit(signedIn, 3))).toMatchObject({
      type: 'member.signed_in_with_sso',
      organization_id: '3',
      data: {
        user: { id: ADA, email: 'ada@example.com' },
        connection: 'org-3',
        account: 'created',
      },
    });
    const linked = viaOrg('user.identity_linked', { connection: 'org-3', account: 'linked' });
    expect(only(webhookEventsFromAudit(linked, 3))).toMatchObject({
      type: 'member.identity_linked',
      data: { connection: 'org-3', account: 'linked' },
    });
    // a platform-wide connection (no organization), and passkey or password sign-ins: none
    const platform = userEntry('user.signed_in', undefined, {
      method: 'oidc',
      connection: 'google',
      account: 'existing',
    });
    expect(webhookEventsFromAudit(platform, 3)).toEqual([]);
    expect(webhookEventsFromAudit(viaOrg('user.signed_in', { method: 'passkey' }), 3)).toEqual([]);
  });

  it('gives nothing for failures and for actions outside the catalog', () => {
    const failed = AuditEntry.parse({
      ...orgEntry('member.added', ada, { role: 'MEMBER' }),
      outcome: 'failure',
    });
    expect(webhookEventsFromAudit(failed, 3)).toEqual([]);
    for (const action of [
      'user.signed_in',
      'user.password_changed',
      'user.password_reset',
      'user.recovery_codes_regenerated',
      'invitation.role_changed',
      'sentinel_pass.updated',
    ] as const) {
      expect(webhookEventsFromAudit(userEntry(action, undefined), 3)).toEqual([]);
    }
    // A producer shape that does not fit (no target user) is dropped, not thrown.
    expect(webhookEventsFromAudit(orgEntry('member.added', null, { role: 'MEMBER' }), 3)).toEqual(
      [],
    );
  });

  it('never lets a secret through: sentinel values in every free field stay out of every event', () => {
    const leaky = {
      password: SENTINEL,
      token: SENTINEL,
      code: SENTINEL,
      secretKey: SENTINEL,
      key: SENTINEL,
      invitationToken: SENTINEL,
    };
    let mapped = 0;
    for (const action of AUDIT_ACTIONS) {
      for (const target of [
        ada,
        { type: 'invitation', id: 'i1', label: 'g@example.com' },
        { type: 'api_key', id: 'k', label: 'n' },
        { type: 'llm_api_key', id: 'l', label: 'openai' },
        { type: 'sentinel_pass', id: 'p', label: 't' },
        { type: 'session', id: 's', label: null },
        { type: 'wallet', id: '0xabc', label: 'organization 3' },
      ]) {
        const entry = AuditEntry.parse({
          ...orgEntry(action, target, {
            ...leaky,
            role: 'MEMBER',
            previousRole: 'VIEWER',
            projectId: 7,
            orgRole: 'ADMIN',
            projectRole: 'MEMBER',
            amount: '1',
            asset: 'CREDITS',
            journalEntryId: '4912d037-0ace-4db0-93fc-117539f42d0f',
            requireTwoFactor: true,
            sessionsEnded: 1,
          }),
          clientAddress: SENTINEL,
          requestId: SENTINEL,
          userAgent: SENTINEL,
          actor: { type: 'user', id: ADMIN, email: SENTINEL },
        });
        for (const event of webhookEventsFromAudit(entry, 3)) {
          mapped += 1;
          expect(JSON.stringify(event)).not.toContain(SENTINEL);
          expect(WEBHOOK_EVENT_CATALOG[event.type].data.safeParse(event.data).success).toBe(true);
        }
      }
    }
    expect(mapped).toBeGreaterThan(20);
  });

  it('organization single sign-on: settings and verified or removed domains, never an added one', () => {
    const settings = orgEntry(
      'organization.sso_settings_changed',
      { type: 'organization', id: '3', label: 'Acme' },
      { ssoRequired: true, defaultRole: 'VIEWER' },
    );
    expect(only(webhookEventsFromAudit(settings, 3)).data).toEqual({
      organization_id: '3',
      sso_required: true,
      default_role: 'VIEWER',
    });
    const domain = {
      type: 'sso_domain',
      id: '5b0e9c7a-1d2f-4e3a-8b6c-0d9e8f7a6b5c',
      label: 'acme.test',
    };
    expect(only(webhookEventsFromAudit(orgEntry('sso_domain.verified', domain), 3))).toMatchObject({
      type: 'sso_domain.verified',
      data: { id: domain.id, domain: 'acme.test' },
    });
    const removed = orgEntry('sso_domain.removed', domain, { wasVerified: false });
    expect(only(webhookEventsFromAudit(removed, 3)).data).toEqual({
      id: domain.id,
      domain: 'acme.test',
      was_verified: false,
    });
    expect(webhookEventsFromAudit(orgEntry('sso_domain.added', domain), 3)).toEqual([]);
    const connection = orgEntry(
      'organization.sso_connection_changed',
      { type: 'oidc_connection', id: '0f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a', label: 'org-3' },
      { issuer: 'https://login.acme.test', enabled: false, created: true },
    );
    expect(only(webhookEventsFromAudit(connection, 3))).toMatchObject({
      type: 'organization.sso_connection_changed',
      data: {
        organization_id: '3',
        id: '0f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a',
        slug: 'org-3',
        issuer: 'https://login.acme.test',
        enabled: false,
        created: true,
      },
    });
  });
});
