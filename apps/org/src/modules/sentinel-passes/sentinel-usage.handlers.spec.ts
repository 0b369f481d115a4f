import { randomUUID } from 'node:crypto';
import type { ActivityEntry } from '@wp/contracts';
import { usageOf } from './sentinel-usage.handlers.js';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';

function entry(
  agentUserId: string,
  activityType: ActivityEntry['activityType'],
  occurredAt: string,
): ActivityEntry {
  return {
    id: randomUUID(),
    agentUserId,
    activityType,
    service: 'org',
    endpoint: '/v1/api/organizations/:organizationId',
    method: 'GET',
    statusCode: activityType === 'error' ? 500 : 200,
    latencyMs: 1,
    success: activityType !== 'error',
    clientAddress: null,
    occurredAt,
  };
}

describe('usageOf', () => {
  it('counts api_request entries per pass with the latest time, ignoring exchanges and errors', () => {
    const usage = usageOf([
      entry(A, 'api_request', '2026-01-01T10:00:00.000Z'),
      entry(A, 'api_request', '2026-01-01T12:00:00.000Z'),
      entry(A, 'api_request', '2026-01-01T11:00:00.000Z'),
      entry(A, 'error', '2026-01-01T13:00:00.000Z'),
      entry(A, 'token_generation', '2026-01-01T14:00:00.000Z'),
      entry(B.toUpperCase(), 'api_request', '2026-01-01T09:00:00.000Z'),
      entry(B, 'token_generation', '2026-01-01T09:30:00.000Z'),
    ]);
    expect(usage).toEqual([
      { passId: A, count: 3, lastUsedAt: new Date('2026-01-01T12:00:00.000Z') },
      { passId: B, count: 1, lastUsedAt: new Date('2026-01-01T09:00:00.000Z') },
    ]);
  });

  it('answers nothing for a batch without api_request entries', () => {
    expect(usageOf([entry(A, 'error', '2026-01-01T10:00:00.000Z')])).toEqual([]);
  });
});
