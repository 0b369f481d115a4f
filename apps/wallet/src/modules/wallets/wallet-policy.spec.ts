import type { Role } from '@wp/contracts';
import { walletAllows } from './wallet-policy.js';

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

describe('walletAllows (ARCHITECTURE § 3, § 4 "Who may move money")', () => {
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

  it('lets an agent read its own wallet only, and move nothing', () => {
    const agent = { type: 'agent' as const, id: 'p1' };
    const own = { entityType: 'agent' as const, entityId: 'p1' };
    expect(walletAllows(agent, own, roles(null), 'read')).toBe(true);
    expect(walletAllows(agent, own, roles(null), 'control')).toBe(false);
    expect(
      walletAllows(agent, { entityType: 'agent', entityId: 'p2' }, roles('OWNER'), 'read'),
    ).toBe(false);
  });
});
