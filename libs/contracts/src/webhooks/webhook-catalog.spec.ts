import { AUDIT_ACTIONS } from '../events/audit.events.js';
import { WEBHOOK_EVENT_CATALOG } from './webhook-catalog.js';
import {
  eventTypeMatches,
  eventTypeSelected,
  isValidEventTypeFilter,
  WEBHOOK_EVENT_PREFIXES,
  WEBHOOK_EVENT_TYPES,
} from './webhook-event-types.js';
import { webhookEventId } from './webhook-event.js';

describe('webhook event catalog', () => {
  it('has one entry per type, each example valid for its schema, version 1', () => {
    expect(Object.keys(WEBHOOK_EVENT_CATALOG).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    for (const type of WEBHOOK_EVENT_TYPES) {
      const entry = WEBHOOK_EVENT_CATALOG[type];
      const parsed = entry.data.safeParse(entry.example);
      expect({ type, ok: parsed.success, error: parsed.error?.message }).toEqual({
        type,
        ok: true,
        error: undefined,
      });
      expect(entry.version).toBe(1);
      expect(entry.description.length).toBeGreaterThan(10);
    }
  });

  it('refuses a field a schema does not name (strict objects: nothing unlisted travels)', () => {
    for (const type of WEBHOOK_EVENT_TYPES) {
      const entry = WEBHOOK_EVENT_CATALOG[type];
      expect(entry.data.safeParse({ ...entry.example, secret: 'x' }).success).toBe(false);
    }
  });

  it('names types like the audit log does where the audit log has the action', () => {
    const audit = new Set<string>(AUDIT_ACTIONS);
    const shared = WEBHOOK_EVENT_TYPES.filter((t) => audit.has(t));
    expect(shared).toEqual(expect.arrayContaining(['member.added', 'session.ended']));
    for (const type of WEBHOOK_EVENT_TYPES) expect(type).toMatch(/^[a-z_]+(\.[a-z_]+)?$/);
  });
});

describe('event type filters', () => {
  it('accepts *, a known prefix with .*, an exact type; nothing else', () => {
    for (const ok of [
      '*',
      'member.*',
      'transaction.*',
      'project_member.*',
      'member.added',
      'ping',
    ]) {
      expect({ ok, valid: isValidEventTypeFilter(ok) }).toEqual({ ok, valid: true });
    }
    for (const bad of [
      '',
      '**',
      'member',
      'member.',
      'Member.added',
      'member.*.*',
      'nope.*',
      '*.added',
      'member.flew',
      ' member.added',
      'ping.*',
    ]) {
      expect({ bad, valid: isValidEventTypeFilter(bad) }).toEqual({ bad, valid: false });
    }
    expect(WEBHOOK_EVENT_PREFIXES).toEqual(expect.arrayContaining(['member', 'transfer_request']));
    expect(WEBHOOK_EVENT_PREFIXES).not.toContain('ping');
  });

  it('matches exact types, prefixes on the segment (member.* is not project_member.*), and *', () => {
    expect(eventTypeMatches('*', 'member.added')).toBe(true);
    expect(eventTypeMatches('member.*', 'member.added')).toBe(true);
    expect(eventTypeMatches('member.*', 'member.removed')).toBe(true);
    expect(eventTypeMatches('member.*', 'project_member.added')).toBe(false);
    expect(eventTypeMatches('project_member.*', 'member.added')).toBe(false);
    expect(eventTypeMatches('member.added', 'member.added')).toBe(true);
    expect(eventTypeMatches('member.added', 'member.removed')).toBe(false);
    expect(eventTypeMatches('nope.*', 'member.added')).toBe(false);
    expect(eventTypeMatches('', 'member.added')).toBe(false);
    expect(eventTypeSelected(['api_key.created', 'transaction.*'], 'transaction.posted')).toBe(
      true,
    );
    expect(eventTypeSelected([], 'transaction.posted')).toBe(false);
  });
});

describe('webhookEventId', () => {
  it('is stable per source, organization and type, and differs when any of them does', () => {
    const a = webhookEventId('6f1c2b9e-7d0a-4b8e-9f3c-2a1b0c9d8e7f', '3', 'member.added');
    expect(a).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(webhookEventId('6f1c2b9e-7d0a-4b8e-9f3c-2a1b0c9d8e7f', '3', 'member.added')).toBe(a);
    expect(webhookEventId('6f1c2b9e-7d0a-4b8e-9f3c-2a1b0c9d8e7f', '4', 'member.added')).not.toBe(a);
    expect(webhookEventId('7f1c2b9e-7d0a-4b8e-9f3c-2a1b0c9d8e7f', '3', 'member.added')).not.toBe(a);
    expect(webhookEventId('6f1c2b9e-7d0a-4b8e-9f3c-2a1b0c9d8e7f', '3', 'member.removed')).not.toBe(
      a,
    );
  });
});
