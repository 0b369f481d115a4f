import { projectGrant } from './project-grant.js';

const pointer = (fn: () => unknown): string | undefined => {
  try {
    fn();
    return undefined;
  } catch (error) {
    return (error as { source?: { pointer?: string } }).source?.pointer;
  }
};

describe('projectGrant (docs/api.md § Projects add_user: organization_role)', () => {
  it('ignores organization_role when project_only', () => {
    expect(projectGrant('ADMIN', 'VIEWER', true)).toEqual({
      role: 'ADMIN',
      organizationRole: null,
      projectOnly: true,
    });
  });

  it('requires organization_role unless project_only', () => {
    expect(pointer(() => projectGrant('MEMBER', undefined, false))).toBe('/organization_role');
  });

  it('requires organization_role equal to or higher than the project role', () => {
    expect(pointer(() => projectGrant('ADMIN', 'MEMBER', false))).toBe('/organization_role');
    expect(projectGrant('ADMIN', 'ADMIN', false).organizationRole).toBe('ADMIN');
    expect(projectGrant('VIEWER', 'OWNER', false).organizationRole).toBe('OWNER');
    expect(
      pointer(() => projectGrant('OWNER', 'ADMIN', false, { organizationRole: 'orgRole' })),
    ).toBe('/orgRole');
  });
});
