import { SentinelPass } from './sentinel-pass.entity.js';
import { toSentinelPassResource } from './sentinel-pass.serializer.js';

function pass(overrides: Partial<SentinelPass> = {}): SentinelPass {
  return Object.assign(new SentinelPass(), {
    id: '6f1c2d3e-0000-4000-8000-000000000001',
    organizationId: 3,
    projectId: 12,
    title: 'Deploy bot',
    description: '',
    entityType: 'project',
    credentialType: 'api_key',
    permissions: ['projects:read'],
    allowedReferers: [],
    scopes: ['read'],
    tags: ['ci'],
    expiresAt: null,
    active: true,
    keyHash: 'a'.repeat(64),
    lastRotated: null,
    usageCount: 0,
    lastUsedAt: null,
    version: 1,
    createdBy: null,
    createdAt: new Date('2026-01-01T00:00:00Z'),
    updatedAt: new Date('2026-01-02T00:00:00Z'),
    ...overrides,
  });
}

describe('toSentinelPassResource', () => {
  it('renders the unified asset format without the key hash', () => {
    const resource = toSentinelPassResource(pass());
    expect(resource).toMatchObject({
      type: 'studio_tool',
      id: '6f1c2d3e-0000-4000-8000-000000000001',
      attributes: {
        assetType: 'security',
        active: true,
        expired: false,
        entityId: '12',
        projectId: '12',
        organizationId: '3',
        metadata: { credentialType: 'api_key', usageCount: 0, lastRotated: null, expiresAt: null },
      },
    });
    expect(JSON.stringify(resource)).not.toContain('a'.repeat(64));
  });

  it('marks a pass past its expiresAt as expired, whatever active says', () => {
    const now = new Date('2026-06-01T00:00:00Z');
    const expired = pass({ expiresAt: new Date('2026-05-31T23:59:59Z'), active: false });
    expect(toSentinelPassResource(expired, now).attributes).toMatchObject({
      active: false,
      expired: true,
    });
    const valid = pass({ expiresAt: new Date('2026-06-01T00:00:01Z') });
    expect(toSentinelPassResource(valid, now).attributes.expired).toBe(false);
  });
});
