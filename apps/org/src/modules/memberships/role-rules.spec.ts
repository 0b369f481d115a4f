import { ROLES, roleRank, type Role } from '@wp/contracts';
import { assertMayGrant, assertRoleChangeAllowed } from './role-rules.js';

const code = (fn: () => void): string | null => {
  try {
    fn();
    return null;
  } catch (error) {
    return (error as { code: string }).code;
  }
};

describe('role rules (docs/org.md § Role rules and statuses)', () => {
  const change = (actorRole: Role, currentRole: Role | null, newRole: Role | null, self = false) =>
    code(() =>
      assertRoleChangeAllowed({
        actorId: 'actor',
        actorRole,
        targetId: self ? 'actor' : 'target',
        currentRole,
        newRole,
      }),
    );

  it('refuses changing one’s own role with CANNOT_CHANGE_OWN_ROLE, whatever the roles', () => {
    for (const role of ROLES)
      expect(change(role, role, 'VIEWER', true)).toBe('CANNOT_CHANGE_OWN_ROLE');
  });

  it('allows self-removal when asked to (leaving)', () => {
    expect(
      code(() =>
        assertRoleChangeAllowed(
          {
            actorId: 'a',
            actorRole: 'VIEWER',
            targetId: 'a',
            currentRole: 'VIEWER',
            newRole: null,
          },
          { allowSelf: true },
        ),
      ),
    ).toBeNull();
  });

  it('refuses an ADMIN promoting to OWNER with INSUFFICIENT_PERMISSIONS', () => {
    expect(change('ADMIN', 'MEMBER', 'OWNER')).toBe('INSUFFICIENT_PERMISSIONS');
  });

  it('refuses acting on anyone whose current role is above the actor’s', () => {
    expect(change('ADMIN', 'OWNER', 'MEMBER')).toBe('INSUFFICIENT_PERMISSIONS');
    expect(change('ADMIN', 'OWNER', null)).toBe('INSUFFICIENT_PERMISSIONS');
  });

  it('allows every grant and change at or below the actor’s own level', () => {
    for (const actor of ROLES) {
      for (const current of [null, ...ROLES] as (Role | null)[]) {
        for (const next of [null, ...ROLES] as (Role | null)[]) {
          const within =
            (current === null || roleRank(current) <= roleRank(actor)) &&
            (next === null || roleRank(next) <= roleRank(actor));
          expect(change(actor, current, next)).toBe(within ? null : 'INSUFFICIENT_PERMISSIONS');
        }
      }
    }
  });

  const lastOwner = (actorRole: Role, newRole: Role | null, self = false, allowSelf = false) =>
    code(() =>
      assertRoleChangeAllowed(
        {
          actorId: 'actor',
          actorRole,
          targetId: self ? 'actor' : 'target',
          currentRole: 'OWNER',
          newRole,
          targetIsLastOwner: true,
        },
        { allowSelf },
      ),
    );

  it('refuses demoting or removing the last OWNER with INVALID_ROLE_TRANSITION before the ceiling, whoever asks', () => {
    for (const actor of ['OWNER', 'ADMIN'] as const) {
      for (const next of ['ADMIN', 'MEMBER', 'VIEWER', null] as const) {
        expect(lastOwner(actor, next)).toBe('INVALID_ROLE_TRANSITION');
      }
    }
    expect(lastOwner('OWNER', null, true, true)).toBe('INVALID_ROLE_TRANSITION'); // leaving
  });

  it('keeps CANNOT_CHANGE_OWN_ROLE first, and the ceiling for a last OWNER kept OWNER', () => {
    expect(lastOwner('OWNER', 'ADMIN', true)).toBe('CANNOT_CHANGE_OWN_ROLE');
    expect(lastOwner('ADMIN', 'OWNER')).toBe('INSUFFICIENT_PERMISSIONS');
    expect(lastOwner('OWNER', 'OWNER')).toBeNull();
  });

  it('assertMayGrant applies the ceiling alone', () => {
    expect(code(() => assertMayGrant('ADMIN', 'OWNER'))).toBe('INSUFFICIENT_PERMISSIONS');
    expect(code(() => assertMayGrant('ADMIN', 'ADMIN'))).toBeNull();
    expect(code(() => assertMayGrant('VIEWER', null))).toBeNull();
  });
});
