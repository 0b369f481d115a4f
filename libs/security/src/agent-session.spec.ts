import { agentSessionId, credentialEpochEnds } from './agent-session.js';

const active = {
  active: true,
  deleted: false,
  keyHash: 'a'.repeat(64),
  permissions: ['read', 'wallets:transact'],
  scopes: ['wallets'],
};
const deleted = { active: false, deleted: true, keyHash: null, permissions: [], scopes: [] };

describe('agentSessionId', () => {
  it('is a stable UUID per pass and epoch, different for the next epoch', () => {
    const id = '3f8b1c2e-8a4d-4e1f-9c3b-2d7e6f5a4b3c';
    expect(agentSessionId(id, 0)).toBe(agentSessionId(id, 0));
    expect(agentSessionId(id, 0)).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(agentSessionId(id, 1)).not.toBe(agentSessionId(id, 0));
  });
});

describe('credentialEpochEnds', () => {
  it('ends the epoch on revocation, deletion and key rotation', () => {
    expect(credentialEpochEnds(active, { ...active, active: false })).toBe(true);
    expect(credentialEpochEnds(active, deleted)).toBe(true);
    expect(credentialEpochEnds(active, { ...active, keyHash: 'b'.repeat(64) })).toBe(true);
  });

  it('ends the epoch when a permission or a scope is taken away, not when one is added', () => {
    expect(credentialEpochEnds(active, { ...active, permissions: ['read'] })).toBe(true);
    expect(credentialEpochEnds(active, { ...active, scopes: [] })).toBe(true);
    const widened = {
      ...active,
      permissions: [...active.permissions, 'write'],
      scopes: ['wallets', 'org'],
    };
    expect(credentialEpochEnds(active, widened)).toBe(false);
    const reordered = { ...active, permissions: ['wallets:transact', 'read'] };
    expect(credentialEpochEnds(active, reordered)).toBe(false);
  });

  it('keeps the epoch on other changes, on activation, and for an already deleted pass', () => {
    expect(credentialEpochEnds(active, { ...active })).toBe(false);
    const revoked = { ...active, active: false };
    expect(credentialEpochEnds(revoked, active)).toBe(false);
    expect(credentialEpochEnds(revoked, { ...revoked })).toBe(false);
    const gone = deleted;
    expect(credentialEpochEnds(gone, { ...gone })).toBe(false);
  });

  it('ends the epoch when a revoked pass is deleted or its key changes', () => {
    const revoked = { ...active, active: false };
    expect(credentialEpochEnds(revoked, deleted)).toBe(true);
  });
});
