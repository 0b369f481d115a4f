import { PlatformStack } from '../support/stack.js';

/**
 * The role rules as a client meets them through the gateway (docs/org.md § Role rules and
 * statuses): the last OWNER is protected with 422 `INVALID_ROLE_TRANSITION` whoever asks, the
 * role ceiling answers 403 `INSUFFICIENT_PERMISSIONS` only where the change could be valid for
 * someone else, one's own role is 422 `CANNOT_CHANGE_OWN_ROLE`; and an organization OWNER or
 * ADMIN cannot be denied project access (422 `CANNOT_DENY_ORGANIZATION_ADMIN`), as the OpenAPI
 * description of `deny_access` says.
 */
describe('role rules through the gateway', () => {
  let stack: PlatformStack;
  let counter = 0;

  interface Account {
    id: string;
    email: string;
    token: string;
  }

  beforeAll(async () => {
    stack = await PlatformStack.start();
  });
  afterAll(() => stack.close());

  const signUp = async (label: string): Promise<Account> => {
    const email = `${label}-${++counter}@role-rules.example.com`;
    const res = await stack.request('POST', '/v1/api/users', {
      body: { username: email, password: 'a long password' },
    });
    expect(res.status).toBe(200);
    return { id: res.body.data.id, email, token: res.body.data.attributes.accessToken };
  };
  const newOrganization = async (owner: Account): Promise<string> => {
    const res = await stack.request('POST', '/v1/api/organizations', {
      token: owner.token,
      body: { data: { type: 'organization', attributes: { name: 'Roles' } } },
    });
    expect(res.status).toBe(200);
    return res.body.data.id;
  };
  const add = async (orgId: string, by: Account, who: Account, role: string) => {
    const res = await stack.request('POST', `/v1/api/organizations/${orgId}/add_user`, {
      token: by.token,
      body: { data: { type: 'users', attributes: { email: who.email, role } } },
    });
    expect(res.status).toBe(201);
  };
  const setRole = (orgId: string, by: Account, userId: string, role: string) =>
    stack.request('PATCH', `/v1/api/organizations/${orgId}/members/${userId}/role`, {
      token: by.token,
      body: { role },
    });
  const remove = (orgId: string, by: Account, userId: string) =>
    stack.request('DELETE', `/v1/api/organizations/${orgId}/remove_user/${userId}`, {
      token: by.token,
    });
  const roles = async (orgId: string, by: Account): Promise<Record<string, string>> => {
    const res = await stack.request('GET', `/v1/api/organizations/${orgId}/users`, {
      token: by.token,
    });
    expect(res.status).toBe(200);
    return Object.fromEntries(
      res.body.data.map((u: { id: string; attributes: { role: string } }) => [
        u.id,
        u.attributes.role,
      ]),
    );
  };
  const codeOf = (res: { status: number; body: any }) => [res.status, res.body?.errors?.[0]?.code];

  it('answers 422 INVALID_ROLE_TRANSITION to an ADMIN demoting or removing the last OWNER, and changes nothing', async () => {
    const owner = await signUp('owner');
    const admin = await signUp('admin');
    const orgId = await newOrganization(owner);
    await add(orgId, owner, admin, 'ADMIN');

    for (const role of ['MEMBER', 'ADMIN', 'VIEWER']) {
      const res = await setRole(orgId, admin, owner.id, role);
      expect(codeOf(res)).toEqual([422, 'INVALID_ROLE_TRANSITION']);
      expect(res.body.errors[0].detail).toMatch(/transfer ownership/);
    }
    expect(codeOf(await remove(orgId, admin, owner.id))).toEqual([422, 'INVALID_ROLE_TRANSITION']);
    expect(codeOf(await remove(orgId, owner, owner.id))).toEqual([422, 'INVALID_ROLE_TRANSITION']);
    // one's own role comes first, the last OWNER included
    expect(codeOf(await setRole(orgId, owner, owner.id, 'ADMIN'))).toEqual([
      422,
      'CANNOT_CHANGE_OWN_ROLE',
    ]);
    expect(await roles(orgId, owner)).toEqual({ [owner.id]: 'OWNER', [admin.id]: 'ADMIN' });
  });

  it('keeps 403 INSUFFICIENT_PERMISSIONS for an ADMIN changing or removing an OWNER who is not the last, or promoting to OWNER', async () => {
    const owner = await signUp('owner');
    const coOwner = await signUp('co-owner');
    const admin = await signUp('admin');
    const member = await signUp('member');
    const orgId = await newOrganization(owner);
    await add(orgId, owner, coOwner, 'OWNER');
    await add(orgId, owner, admin, 'ADMIN');
    await add(orgId, owner, member, 'MEMBER');

    expect(codeOf(await setRole(orgId, admin, owner.id, 'MEMBER'))).toEqual([
      403,
      'INSUFFICIENT_PERMISSIONS',
    ]);
    expect(codeOf(await remove(orgId, admin, coOwner.id))).toEqual([
      403,
      'INSUFFICIENT_PERMISSIONS',
    ]);
    expect(codeOf(await setRole(orgId, admin, member.id, 'OWNER'))).toEqual([
      403,
      'INSUFFICIENT_PERMISSIONS',
    ]);
    expect(await roles(orgId, owner)).toEqual({
      [owner.id]: 'OWNER',
      [coOwner.id]: 'OWNER',
      [admin.id]: 'ADMIN',
      [member.id]: 'MEMBER',
    });
    // an OWNER may demote the other OWNER; then the remaining one is the last
    expect((await setRole(orgId, owner, coOwner.id, 'ADMIN')).status).toBe(200);
    expect(codeOf(await setRole(orgId, coOwner, owner.id, 'ADMIN'))).toEqual([
      422,
      'INVALID_ROLE_TRANSITION',
    ]);
  });

  describe('deny_access of organization OWNERs and ADMINs', () => {
    it('answers 422 CANNOT_DENY_ORGANIZATION_ADMIN, explicit project member or not, whoever asks', async () => {
      const owner = await signUp('owner');
      const orgAdmin = await signUp('org-admin');
      const projectAdmin = await signUp('project-admin');
      const orgId = await newOrganization(owner);
      await add(orgId, owner, orgAdmin, 'ADMIN');
      await add(orgId, owner, projectAdmin, 'MEMBER');
      const P = `/v1/api/organizations/${orgId}/projects`;
      const project = await stack.request('POST', P, {
        token: owner.token,
        body: { data: { type: 'project', attributes: { name: 'Guarded' } } },
      });
      expect(project.status).toBe(201);
      const projectId = project.body.data.id;
      const added = await stack.request('POST', `${P}/${projectId}/add_user`, {
        token: owner.token,
        body: {
          data: { type: 'users', attributes: { email: projectAdmin.email } },
          role: 'ADMIN',
          project_only: true,
        },
      });
      expect(added.status).toBe(201);
      const deny = (by: Account, userId: string) =>
        stack.request('POST', `${P}/${projectId}/deny_access/${userId}`, { token: by.token });

      // the organization ADMIN is no explicit member of the project; the OWNER is its creator
      expect(codeOf(await deny(owner, orgAdmin.id))).toEqual([
        422,
        'CANNOT_DENY_ORGANIZATION_ADMIN',
      ]);
      expect(codeOf(await deny(projectAdmin, owner.id))).toEqual([
        422,
        'CANNOT_DENY_ORGANIZATION_ADMIN',
      ]);
      expect(codeOf(await deny(orgAdmin, owner.id))).toEqual([
        422,
        'CANNOT_DENY_ORGANIZATION_ADMIN',
      ]);
      expect(codeOf(await deny(orgAdmin, orgAdmin.id))).toEqual([422, 'CANNOT_CHANGE_OWN_ROLE']);
      for (const who of [owner, orgAdmin]) {
        const seen = await stack.request('GET', `${P}/${projectId}`, { token: who.token });
        expect(seen.status).toBe(200);
      }
      // a plain project member can be denied
      const denied = await deny(orgAdmin, projectAdmin.id);
      expect(denied.status).toBe(200);
      expect(denied.body.data.attributes).toMatchObject({ accessDenied: true });
    });

    it('says so in the OpenAPI description of the route', async () => {
      const res = await stack.request('GET', '/docs/openapi.json');
      expect(res.status).toBe(200);
      const operation =
        res.body.paths[
          '/v1/api/organizations/{organizationId}/projects/{projectId}/deny_access/{userId}'
        ].post;
      expect(operation.description).toContain('CANNOT_DENY_ORGANIZATION_ADMIN');
      expect(operation.description).toMatch(/organization OWNER or ADMIN cannot be denied/);
      expect(operation.responses['422'].description).toContain('CANNOT_DENY_ORGANIZATION_ADMIN');
    });
  });
});
