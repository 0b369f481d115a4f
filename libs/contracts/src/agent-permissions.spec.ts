import {
  AGENT_PERMISSION_NAMES,
  agentCan,
  agentCanMap,
  grantedAgentPermissions,
} from './agent-permissions.js';
import { projectCanMap } from './permissions.js';

describe('agent permissions (docs/org.md § Agent tokens)', () => {
  it('grants exactly the mapped project permissions, and nothing for unknown names', () => {
    expect(agentCan(['projects:read'], 'project.read')).toBe(true);
    expect(agentCan(['projects:read'], 'project.update')).toBe(false);
    expect(agentCan(['wallets:debit'], 'wallet.read')).toBe(true);
    expect(agentCan(['wallets:debit'], 'wallet.debit')).toBe(true);
    expect(agentCan(['wallets:debit'], 'wallet.transact')).toBe(false);
    expect(agentCan(['wallets:transact'], 'wallet.transact')).toBe(true);
    expect(agentCan(['projects.read', 'toString', '__proto__'], 'project.read')).toBe(false);
    expect(agentCan([], 'project.read')).toBe(false);
  });

  it('never grants management, keys, secrets or pass management to any agent', () => {
    for (const permission of [
      'project.update',
      'project.delete',
      'project.manageMembers',
      'project.manageKeys',
      'project.viewSecrets',
      'sentinelPass.manage',
    ] as const) {
      expect(agentCan(AGENT_PERMISSION_NAMES, permission)).toBe(false);
    }
  });

  it('reads the coarse read as every *:read permission, and nothing that writes', () => {
    expect(grantedAgentPermissions(['read'])).toEqual([
      'projects:read',
      'sentinel_passes:read',
      'wallets:read',
    ]);
    expect(agentCan(['read'], 'wallet.read')).toBe(true);
    expect(agentCan(['read'], 'sentinelPass.read')).toBe(true);
    expect(agentCan(['read'], 'wallet.debit')).toBe(false);
    expect(agentCan(['read'], 'wallet.transact')).toBe(false);
  });

  it('reads the coarse write as read plus moving the project’s money, never management', () => {
    expect(grantedAgentPermissions(['write'])).toEqual(AGENT_PERMISSION_NAMES);
    expect(agentCan(['write'], 'wallet.transact')).toBe(true);
    expect(agentCan(['write'], 'wallet.debit')).toBe(true);
    expect(agentCan(['write'], 'project.read')).toBe(true);
    for (const permission of [
      'project.update',
      'project.manageKeys',
      'sentinelPass.manage',
    ] as const)
      expect(agentCan(['write', 'read'], permission)).toBe(false);
  });

  it('grants nothing for unknown strings, and ignores them next to known ones', () => {
    expect(grantedAgentPermissions(['bogus', 'READ', 'write ', '*', 'wallets:*'])).toEqual([]);
    expect(grantedAgentPermissions(['bogus', 'wallets:read', 'wallets:read'])).toEqual([
      'wallets:read',
    ]);
    expect(agentCan(['bogus'], 'project.read')).toBe(false);
  });

  it('gives meta.can the same nested shape as for users', () => {
    const map = agentCanMap(['projects:read', 'wallets:read']);
    expect(Object.keys(map).sort()).toEqual(Object.keys(projectCanMap('VIEWER')).sort());
    expect(map['project']).toMatchObject({ read: true, update: false });
    expect(map['wallet']).toMatchObject({ read: true, debit: false, transact: false });
    expect(map['sentinelPass']).toMatchObject({ read: false, manage: false });
  });
});
