import type { WebhookEvent, WebhookEventType } from '@wp/contracts';
import { endpointSelects, fanOut, type EndpointScope } from './endpoint-matching.js';

const event = (
  type: WebhookEventType,
  organization_id: string,
  project_id: string | null = null,
): WebhookEvent => ({
  id: `evt_${type}_${organization_id}_${project_id ?? ''}`,
  type,
  version: 1,
  timestamp: '2026-11-28T12:00:00.000Z',
  organization_id,
  project_id,
  actor: null,
  data: {},
});

const endpoint = (
  id: string,
  organizationId: string,
  eventTypes: string[],
  projectId: string | null = null,
): EndpointScope => ({ id, organizationId, projectId, eventTypes });

describe('webhook fan-out (docs/org.md § Webhooks, Fan-out)', () => {
  it('never crosses organizations, whatever the filter', () => {
    const all = endpoint('a', '1', ['*']);
    expect(endpointSelects(all, event('member.added', '1'))).toBe(true);
    expect(endpointSelects(all, event('member.added', '2'))).toBe(false);
    expect(endpointSelects(all, event('project.created', '12', '1'))).toBe(false);
  });

  it('gives a project-scoped endpoint only its project’s events, not organization-level ones', () => {
    const scoped = endpoint('p', '1', ['*'], '7');
    expect(endpointSelects(scoped, event('api_key.created', '1', '7'))).toBe(true);
    expect(endpointSelects(scoped, event('api_key.created', '1', '8'))).toBe(false);
    expect(endpointSelects(scoped, event('member.added', '1', null))).toBe(false);
    expect(endpointSelects(scoped, event('api_key.created', '2', '7'))).toBe(false);
    // an organization-wide endpoint gets every project's events too
    expect(endpointSelects(endpoint('o', '1', ['*']), event('api_key.created', '1', '8'))).toBe(
      true,
    );
  });

  it('applies the filters: *, <prefix>.*, exact types, any of several', () => {
    const members = endpoint('m', '1', ['member.*']);
    expect(endpointSelects(members, event('member.added', '1'))).toBe(true);
    expect(endpointSelects(members, event('member.removed', '1'))).toBe(true);
    expect(endpointSelects(members, event('project_member.added', '1'))).toBe(false);
    const exact = endpoint('x', '1', ['project.created', 'transaction.posted']);
    expect(endpointSelects(exact, event('project.created', '1'))).toBe(true);
    expect(endpointSelects(exact, event('transaction.posted', '1'))).toBe(true);
    expect(endpointSelects(exact, event('project.deleted', '1'))).toBe(false);
    expect(endpointSelects(endpoint('n', '1', []), event('project.created', '1'))).toBe(false);
  });

  it('never fans a ping out: it goes only to the endpoint a test was asked for', () => {
    expect(endpointSelects(endpoint('a', '1', ['*']), event('ping', '1'))).toBe(false);
  });

  it('pairs each event with its endpoints', () => {
    const endpoints = [
      endpoint('all-1', '1', ['*']),
      endpoint('members-1', '1', ['member.*']),
      endpoint('all-2', '2', ['*']),
    ];
    const result = fanOut(endpoints, [
      event('member.added', '1'),
      event('project.created', '1', '3'),
      event('member.added', '2'),
      event('member.added', '3'),
    ]);
    expect(result.map((r) => r.endpointIds)).toEqual([
      ['all-1', 'members-1'],
      ['all-1'],
      ['all-2'],
      [],
    ]);
  });
});
