import type { Role } from '@wp/contracts';
import { walletAllows, walletVisible } from './wallet-policy.js';

const user = { type: 'user' as const, id: 'u1' };
const roles = (
  organizationRole: Role | null,
  projectRole: Role | null = null,
  accessDenied = false,
) => ({
  organizationRole,
  projectRole,
  accessDenied,
});

describe('walletAllows (docs/architecture.md § Identity and access, docs/architecture.md § Who may move money)', () => {
  it('gives a user everything on their own wallet and nothing on another user’s', () => {
    const own = { entityType: 'user' as const, entityId: 'u1' };
    const other = { entityType: 'user' as const, entityId: 'u2' };
    expect(walletAllows(user, own, roles(null), 'control')).toBe(true);
    expect(walletAllows(user, other, roles('OWNER'), 'read')).toBe(false);
  });

  it.each<[Role | null, boolean, boolean]>([
    ['OWNER', true, true],
    ['ADMIN', true, true],
    ['MEMBER', true, false],
    ['VIEWER', true, false],
    [null, false, false],
  ])('organization wallet, role %p: read %p, control %p', (role, read, control) => {
    const wallet = { entityType: 'organization' as const, entityId: '7' };
    expect(walletAllows(user, wallet, roles(role), 'read')).toBe(read);
    expect(walletAllows(user, wallet, roles(role), 'control')).toBe(control);
  });

  it.each<[Role | null, Role | null, boolean, boolean, boolean]>([
    ['OWNER', null, false, true, true],
    ['ADMIN', null, true, true, true],
    ['MEMBER', null, false, false, false],
    ['MEMBER', 'ADMIN', false, true, true],
    ['MEMBER', 'MEMBER', false, true, false],
    ['VIEWER', 'ADMIN', true, false, false],
    [null, 'VIEWER', false, true, false],
  ])(
    'project / agent wallet, org %p, project %p, denied %p: read %p, control %p',
    (org, project, denied, read, control) => {
      for (const entityType of ['project', 'agent'] as const) {
        const wallet = { entityType, entityId: '9' };
        expect(walletAllows(user, wallet, roles(org, project, denied), 'read')).toBe(read);
        expect(walletAllows(user, wallet, roles(org, project, denied), 'control')).toBe(control);
      }
    },
  );

  const agent = (permissions: string[]) => ({
    type: 'agent' as const,
    id: 'p1',
    agent: { organizationId: 7, projectId: 9, scopes: [], permissions },
  });
  const projectWallet = { entityType: 'project' as const, entityId: '9' };
  const ownWallet = { entityType: 'agent' as const, entityId: 'p1' };

  it('shows an agent its project’s wallets and its own, and nothing else', () => {
    const none = agent([]);
    expect(walletVisible(none, projectWallet, roles(null))).toBe(true);
    expect(walletVisible(none, ownWallet, roles(null))).toBe(true);
    for (const other of [
      { entityType: 'project' as const, entityId: '10' },
      { entityType: 'agent' as const, entityId: 'p2' },
      { entityType: 'organization' as const, entityId: '7' },
      { entityType: 'user' as const, entityId: 'p1' },
    ]) {
      expect(walletVisible(none, other, roles('OWNER'))).toBe(false);
      expect(walletAllows(agent(['wallets:transact']), other, roles('OWNER'), 'read')).toBe(false);
    }
    const unbound = { type: 'agent' as const, id: 'p1' };
    expect(walletVisible(unbound, ownWallet, roles(null))).toBe(false);
  });

  it.each<[string[], boolean, boolean, boolean]>([
    [[], false, false, false],
    [['projects:read'], false, false, false],
    [['wallets:read'], true, false, false],
    [['wallets:debit'], true, true, false],
    [['wallets:transact'], true, true, true],
  ])(
    'agent with %p: read %p, debit %p, transact %p, never control',
    (prm, read, debit, transact) => {
      for (const wallet of [projectWallet, ownWallet]) {
        expect(walletAllows(agent(prm), wallet, roles(null), 'read')).toBe(read);
        expect(walletAllows(agent(prm), wallet, roles(null), 'debit')).toBe(debit);
        expect(walletAllows(agent(prm), wallet, roles(null), 'transact')).toBe(transact);
        expect(walletAllows(agent(prm), wallet, roles(null), 'control')).toBe(false);
      }
    },
  );
});
