import {
  effectiveProjectRole,
  organizationCan,
  organizationCanMap,
  projectCan,
} from './permissions.js';

describe('permission table', () => {
  it('grants organization settings to ADMIN and OWNER only', () => {
    expect(organizationCan('OWNER', 'organization.manageSettings')).toBe(true);
    expect(organizationCan('ADMIN', 'organization.manageSettings')).toBe(true);
    expect(organizationCan('MEMBER', 'organization.manageSettings')).toBe(false);
    expect(organizationCan('VIEWER', 'organization.manageSettings')).toBe(false);
    expect(organizationCan(null, 'organization.read')).toBe(false);
  });

  it('keeps organization deletion to OWNER', () => {
    expect(organizationCan('ADMIN', 'organization.delete')).toBe(false);
    expect(organizationCan('OWNER', 'organization.delete')).toBe(true);
  });

  it('renders meta.can as nested booleans (docs/api.md § Organization, sidebar form)', () => {
    const can = organizationCanMap('MEMBER');
    expect(can['organization']?.['manageSettings']).toBe(false);
    expect(can['project']?.['create']).toBe(false);
    expect(organizationCanMap('ADMIN')['project']?.['create']).toBe(true);
  });

  it('gives organization OWNER/ADMIN implicit project ADMIN, and denied members nothing', () => {
    expect(
      effectiveProjectRole({ organizationRole: 'ADMIN', projectRole: null, accessDenied: false }),
    ).toBe('ADMIN');
    expect(
      effectiveProjectRole({
        organizationRole: 'OWNER',
        projectRole: 'VIEWER',
        accessDenied: true,
      }),
    ).toBe('OWNER');
    expect(
      effectiveProjectRole({
        organizationRole: 'MEMBER',
        projectRole: 'MEMBER',
        accessDenied: true,
      }),
    ).toBeNull();
    expect(
      effectiveProjectRole({
        organizationRole: 'MEMBER',
        projectRole: 'VIEWER',
        accessDenied: false,
      }),
    ).toBe('VIEWER');
    expect(projectCan('VIEWER', 'project.read')).toBe(true);
    expect(projectCan('VIEWER', 'project.update')).toBe(false);
  });
});
