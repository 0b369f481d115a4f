import { waitFor } from '@wp/testing';
import { Secret, TOTP } from 'otpauth';
import { OrgTestContext, type TestUser } from '../support/org-test-app.js';

const PASSWORD = 'a long test password';

/**
 * The organization two-factor policy (docs/org.md § Two-factor policy): an OWNER may require
 * two-factor of every member; org learns each account's state from auth's
 * `auth.user.two_factor_changed` into its user directory; a member without it is refused with
 * 403 `ORGANIZATION_REQUIRES_TWO_FACTOR` on the organization's routes and sees `meta.can` all
 * false.
 */
describe('org: two-factor policy', () => {
  let ctx: OrgTestContext;
  let owner: TestUser;
  let admin: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  let orgId: string;
  let projectId: string;

  beforeAll(async () => {
    ctx = await OrgTestContext.start();
    [owner, admin, member, stranger] = await Promise.all(
      ['owner', 'admin', 'member', 'stranger'].map((l) => ctx.newUser(l)),
    );
    orgId = await ctx.newOrganization(owner, 'Strict Inc');
    await ctx.addMember(orgId, owner, admin, 'ADMIN');
    await ctx.addMember(orgId, owner, member, 'MEMBER');
    projectId = await ctx.defaultProject(orgId);
    await ctx.addProjectMember(orgId, projectId, owner, member, 'MEMBER');
  });
  afterAll(() => ctx.close());

  const POLICY = () => `/organizations/${orgId}/security_policy`;
  const requireTwoFactor = (token: string, value: boolean) =>
    ctx.request('PATCH', POLICY(), {
      token,
      body: { data: { type: 'security_policy', attributes: { requireTwoFactor: value } } },
    });
  const auth = (method: 'GET' | 'POST', url: string, token: string, payload?: object) =>
    ctx.auth.inject({
      method,
      url: `/v1/api${url}`,
      headers: { 'api-key': ctx.env.keys.apiKey, authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    });

  /** Turns two-factor on for a user through auth; returns a way to make codes. */
  const enableTwoFactor = async (user: TestUser): Promise<TOTP> => {
    const started = await auth('POST', '/users/me/two_factor', user.token, { password: PASSWORD });
    expect(started.statusCode).toBe(201);
    const totp = new TOTP({ secret: Secret.fromBase32(started.json().data.attributes.secret) });
    const confirmed = await auth('POST', '/users/me/two_factor/confirm', user.token, {
      code: totp.generate(),
    });
    expect(confirmed.statusCode).toBe(200);
    return totp;
  };
  const directoryTwoFactor = async (user: TestUser) => {
    const [row] = await ctx.db.query(
      'SELECT two_factor_enabled FROM directory_user WHERE id = $1',
      [user.id],
    );
    return row?.two_factor_enabled === true;
  };

  it('shows the policy to any member and lets only an OWNER change it', async () => {
    const res = await ctx.request('GET', POLICY(), { token: member.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      type: 'security_policy',
      id: orgId,
      attributes: { requireTwoFactor: false, membersWithoutTwoFactor: 3 },
    });
    const byAdmin = await requireTwoFactor(admin.token, true);
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body.errors[0].code).toBe('FORBIDDEN');
    expect((await ctx.request('GET', POLICY(), { token: stranger.token })).status).toBe(404);
    const bad = await ctx.request('PATCH', POLICY(), {
      token: owner.token,
      body: { data: { attributes: { requireTwoFactor: 'yes' } } },
    });
    expect(bad.status).toBe(400);
    const org = await ctx.request('GET', `/organizations/${orgId}`, { token: owner.token });
    expect(org.body.meta.can.organization).toMatchObject({
      manageSecurity: true,
      readAuditLog: true,
    });
    expect(org.body.meta.twoFactorRequired).toBeUndefined();
  });

  it('refuses an OWNER whose own account has two-factor off', async () => {
    const res = await requireTwoFactor(owner.token, true);
    expect(res.status).toBe(422);
    expect(res.body.errors[0].code).toBe('TWO_FACTOR_NOT_ENABLED');
  });

  it('learns an account’s two-factor state from auth within 2 s and lets its OWNER require it', async () => {
    const started = Date.now();
    await enableTwoFactor(owner);
    await waitFor(() => directoryTwoFactor(owner), { timeoutMs: 2000, intervalMs: 25 });
    expect(Date.now() - started).toBeLessThan(3000);
    const res = await requireTwoFactor(owner.token, true);
    expect(res.status).toBe(200);
    expect(res.body.data.attributes).toEqual({
      requireTwoFactor: true,
      membersWithoutTwoFactor: 2,
    });
    const log = await ctx.request(
      'GET',
      `/organizations/${orgId}/audit_log?action=organization.security_policy_changed`,
      { token: owner.token },
    );
    expect(log.body.data[0].attributes).toMatchObject({
      actor: { id: owner.id },
      details: { requireTwoFactor: true },
    });
  });

  it('refuses members without two-factor on every organization route with a clear 403', async () => {
    for (const path of [
      `/organizations/${orgId}`,
      `/organizations/${orgId}/users`,
      `/organizations/${orgId}/projects`,
      `/organizations/${orgId}/projects/${projectId}`,
      POLICY(),
    ]) {
      const res = await ctx.request('GET', path, { token: member.token });
      expect(res.status).toBe(403);
      expect(res.body.errors[0]).toMatchObject({
        status: '403',
        code: 'ORGANIZATION_REQUIRES_TWO_FACTOR',
      });
    }
    // Strangers still learn nothing.
    const foreign = await ctx.request('GET', `/organizations/${orgId}`, { token: stranger.token });
    expect(foreign.status).toBe(404);
    // The owner (two-factor on) works as before.
    expect(
      (await ctx.request('GET', `/organizations/${orgId}`, { token: owner.token })).status,
    ).toBe(200);
  });

  it('shows the organization in lists with meta.can all false for a member without two-factor', async () => {
    const list = await ctx.request('GET', '/organizations', { token: member.token });
    expect(list.status).toBe(200);
    const org = list.body.data.find((o: { id: string }) => o.id === orgId);
    expect(org.meta.role).toBe('MEMBER');
    expect(org.meta.twoFactorRequired).toBe(true);
    const granted = Object.values(org.meta.can as Record<string, Record<string, boolean>>)
      .flatMap((group) => Object.values(group))
      .filter(Boolean);
    expect(granted).toEqual([]);
    const settings = await ctx.request('GET', '/user_settings', { token: member.token });
    const entry = settings.body.sidebar.organizations.find(
      (o: { id: number }) => o.id === Number(orgId),
    );
    expect(entry.meta.can).toEqual({
      organization: { manageSettings: false },
      project: { create: false },
    });
    const ownerList = await ctx.request('GET', '/organizations', { token: owner.token });
    const ownerView = ownerList.body.data.find((o: { id: string }) => o.id === orgId);
    expect(ownerView.meta.can.organization.manageSettings).toBe(true);
  });

  it('lets the member back in once their account has two-factor on', async () => {
    await enableTwoFactor(member);
    const res = await waitFor(
      async () => {
        const r = await ctx.request('GET', `/organizations/${orgId}`, { token: member.token });
        return r.status === 200 && r;
      },
      { timeoutMs: 2000, intervalMs: 25, what: 'the member let in' },
    );
    expect(res.body.meta.can.organization.read).toBe(true);
  });

  it('still lets a member without two-factor leave the organization', async () => {
    const res = await ctx.request('DELETE', `/organizations/${orgId}/remove_user/${admin.id}`, {
      token: admin.token,
    });
    expect(res.status).toBe(204);
    const listed = await ctx.request('GET', '/organizations', { token: admin.token });
    expect(listed.body.data.map((o: { id: string }) => o.id)).not.toContain(orgId);
  });

  it('stops refusing anyone once the OWNER no longer requires it', async () => {
    expect((await requireTwoFactor(owner.token, false)).status).toBe(200);
    const outsider = await ctx.newUser('late');
    await ctx.addMember(orgId, owner, outsider, 'VIEWER');
    expect(
      (await ctx.request('GET', `/organizations/${orgId}`, { token: outsider.token })).status,
    ).toBe(200);
  });
});
