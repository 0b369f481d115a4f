import { AuditRecorded } from './audit.events.js';

const entry = {
  id: '6f1c2b9e-7d0a-4b8e-9f3c-2a1b0c9d8e7f',
  action: 'user.signed_in',
  outcome: 'success',
  occurredAt: '2026-11-25T10:00:00.000Z',
  organizationId: null,
  subjectUserId: '0b1c2b9e-7d0a-4b8e-9f3c-2a1b0c9d8e7f',
  actor: { type: 'user', id: '0b1c2b9e-7d0a-4b8e-9f3c-2a1b0c9d8e7f', email: 'ada@example.com' },
  target: null,
  clientAddress: '10.0.0.1',
  requestId: 'r1',
  userAgent: null,
  details: { method: 'password+totp' },
};

describe('audit events (auth.audit.recorded, wallet.audit.recorded)', () => {
  it('accepts a user-level entry and an organization entry', () => {
    expect(AuditRecorded.safeParse({ entries: [entry] }).success).toBe(true);
    const orgEntry = { ...entry, organizationId: 3, subjectUserId: null };
    expect(AuditRecorded.safeParse({ entries: [orgEntry] }).success).toBe(true);
  });

  it('refuses an entry that belongs to no organization and no user', () => {
    const orphan = { ...entry, organizationId: null, subjectUserId: null };
    expect(AuditRecorded.safeParse({ entries: [orphan] }).success).toBe(false);
  });

  it('refuses unknown actions and nested details (only named scalars travel)', () => {
    expect(AuditRecorded.safeParse({ entries: [{ ...entry, action: 'user.flew' }] }).success).toBe(
      false,
    );
    const nested = { ...entry, details: { body: { password: 'x' } } };
    expect(AuditRecorded.safeParse({ entries: [nested] }).success).toBe(false);
    expect(AuditRecorded.safeParse({ entries: [] }).success).toBe(false);
  });
});
