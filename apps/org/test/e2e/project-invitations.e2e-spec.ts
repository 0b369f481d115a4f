import { OrgTestContext, type TestUser } from '../support/org-test-app.js';

/**
 * docs/api.md § Projects (invitations: create, list, resend, cancel) with `projectRole` default
 * `member`, `orgRole`, `projectOnly` (top level or data.attributes,
 * docs/architecture.md § Decisions where the contract is silent), and acceptance through
 * `/me/accept_invitation/{id}`: the project role and, unless project-only, the organization role.
 */
describe('project invitations', () => {
  let ctx: OrgTestContext;
  let owner: TestUser;
  let orgId: string;
  let projectId: string;
  let P: string;

  beforeAll(async () => {
    ctx = await OrgTestContext.start({ INVITATION_RESEND_LIMIT: '1000' });
    owner = await ctx.newUser('owner');
    orgId = await ctx.newOrganization(owner, 'Inviters');
    projectId = await ctx.newProject(orgId, owner, 'Website');
    P = `/organizations/${orgId}/projects/${projectId}`;
  });
  afterAll(() => ctx.close());

  const invite = (body: unknown, actor = owner) =>
    ctx.request('POST', `${P}/invitations`, { token: actor.token, body });
  const register = async (email: string): Promise<TestUser> => {
    const res = await ctx.auth.inject({
      method: 'POST',
      url: '/v1/api/users',
      headers: { 'api-key': ctx.env.keys.apiKey },
      payload: { username: email, password: 'a long test password' },
    });
    const data = res.json().data;
    return { id: data.id, email, token: data.attributes.accessToken };
  };
  const data = (email: string, attributes: Record<string, unknown> = {}) => ({
    type: 'membershipInvitation',
    attributes: { email, ...attributes },
  });

  it('invites with projectRole member and orgRole equal to it by default; accepting grants both', async () => {
    const email = ctx.unknownEmail('dev');
    const mark = await ctx.outboxMark();
    const res = await invite({ data: data(email) });
    expect(res.status).toBe(201);
    expect(res.body.data.attributes).toMatchObject({
      email,
      projectRole: 'member',
      orgRole: 'member',
      projectOnly: false,
      projectId,
      status: 'pending',
    });
    const [mail] = await ctx.outbox('notify.requested', mark);
    expect(mail.payload).toMatchObject({ to: email, subject: 'Invitation to Website (Inviters)' });
    expect(mail.payload.text).toContain('as member (organization role: member)');

    const invitee = await register(email);
    const pending = await ctx.request('GET', '/me/pending_invitations', { token: invitee.token });
    expect(pending.body.data[0].attributes).toMatchObject({
      projectName: 'Website',
      organizationName: 'Inviters',
    });
    const before = await ctx.outboxMark();
    const accepted = await ctx.request('POST', `/me/accept_invitation/${res.body.data.id}`, {
      token: invitee.token,
    });
    expect(accepted.status).toBe(200);
    const events = (await ctx.outbox('org.membership.changed', before)).map((e) => e.payload);
    expect(events).toEqual([
      {
        organizationId: Number(orgId),
        projectId: null,
        userId: invitee.id,
        role: 'MEMBER',
        accessDenied: false,
        version: 1,
        organizationVersion: expect.any(Number),
      },
      {
        organizationId: Number(orgId),
        projectId: Number(projectId),
        userId: invitee.id,
        role: 'MEMBER',
        accessDenied: false,
        version: 1,
        organizationVersion: expect.any(Number),
      },
    ]);
    const project = await ctx.request('GET', P, { token: invitee.token });
    expect(project.status).toBe(200);
    expect(project.body.meta.role).toBe('MEMBER');
  });

  it('takes projectRole, orgRole and projectOnly at the top level too; project-only grants no organization role', async () => {
    const email = ctx.unknownEmail('contractor');
    const res = await invite({
      data: data(email),
      projectRole: 'VIEWER',
      projectOnly: true,
      orgRole: 'admin',
    });
    expect(res.status).toBe(201);
    expect(res.body.data.attributes).toMatchObject({
      projectRole: 'viewer',
      orgRole: null,
      projectOnly: true,
    });
    const invitee = await register(email);
    expect(
      (
        await ctx.request('POST', `/me/accept_invitation/${res.body.data.id}`, {
          token: invitee.token,
        })
      ).status,
    ).toBe(200);
    const org = await ctx.db.query(
      'SELECT 1 FROM organization_membership WHERE organization_id = $1 AND user_id = $2',
      [Number(orgId), invitee.id],
    );
    expect(org).toEqual([]);
    const project = await ctx.request('GET', P, { token: invitee.token });
    expect(project.body.meta.role).toBe('VIEWER');
  });

  it('rejects an orgRole below the projectRole and bad values (400)', async () => {
    const low = await invite({
      data: data(ctx.unknownEmail('low'), { projectRole: 'admin', orgRole: 'viewer' }),
    });
    expect(low.status).toBe(400);
    expect(low.body.errors[0].source.pointer).toBe('/orgRole');
    const bad = await invite({
      data: data('not-an-email', { projectRole: 'lead' }),
      projectOnly: 'no',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.source.pointer).sort()).toEqual([
      '/data/attributes/email',
      '/data/attributes/projectRole',
      '/projectOnly',
    ]);
  });

  it('answers 422 redirect_to_add_member for an existing account', async () => {
    const existing = await ctx.newUser('existing');
    const res = await invite({ data: data(existing.email) });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].code).toBe('redirect_to_add_member');
    expect(res.body.meta.redirect_to_add_member).toBe(true);
  });

  it('lists, resends and cancels project invitations; they are separate from the organization’s', async () => {
    const email = ctx.unknownEmail('listed');
    const created = await invite({ data: data(email) });
    const list = await ctx.request('GET', `${P}/invitations`, { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.body.data.map((i: any) => i.id)).toContain(created.body.data.id);
    const orgList = await ctx.request('GET', `/organizations/${orgId}/invitations`, {
      token: owner.token,
    });
    expect(orgList.body.data.map((i: any) => i.id)).not.toContain(created.body.data.id);

    const resent = await ctx.request('POST', `${P}/invitations/${created.body.data.id}/resend`, {
      token: owner.token,
    });
    expect(resent.status).toBe(200);
    expect(resent.body.data.attributes.sendCount).toBe(2);
    const viaOrg = await ctx.request(
      'DELETE',
      `/organizations/${orgId}/invitations/${created.body.data.id}`,
      {
        token: owner.token,
      },
    );
    expect(viaOrg.status).toBe(404);
    const cancelled = await ctx.request('DELETE', `${P}/invitations/${created.body.data.id}`, {
      token: owner.token,
    });
    expect(cancelled.status).toBe(204);
    const after = await ctx.request('GET', `${P}/invitations`, { token: owner.token });
    expect(after.body.data.map((i: any) => i.id)).not.toContain(created.body.data.id);
  });

  it('lets a project ADMIN invite project-only, but not into the organization (403) or above their role (403)', async () => {
    const lead = await ctx.newUser('lead');
    await ctx.addMember(orgId, owner, lead, 'MEMBER');
    await ctx.addProjectMember(orgId, projectId, owner, lead, 'ADMIN');
    const ok = await invite({ data: data(ctx.unknownEmail('p1')), projectOnly: true }, lead);
    expect(ok.status).toBe(201);
    const org = await invite({ data: data(ctx.unknownEmail('p2')) }, lead);
    expect(org.status).toBe(403);
    expect(org.body.errors[0].code).toBe('FORBIDDEN');
    const above = await invite(
      { data: data(ctx.unknownEmail('p3'), { projectRole: 'owner' }), projectOnly: true },
      lead,
    );
    expect(above.status).toBe(403);
    expect(above.body.errors[0].code).toBe('INSUFFICIENT_PERMISSIONS');
    const viewer = await ctx.newUser('viewer');
    await ctx.addProjectMember(orgId, projectId, owner, viewer, 'VIEWER');
    const list = await ctx.request('GET', `${P}/invitations`, { token: viewer.token });
    expect(list.status).toBe(403);
  });

  it('never undoes a deny_access: accepting an older invitation leaves a denied membership denied', async () => {
    const email = ctx.unknownEmail('returning');
    const invitation = await invite({ data: data(email), projectOnly: true });
    const user = await register(email);
    await ctx.addProjectMember(orgId, projectId, owner, user, 'MEMBER');
    await ctx.request('POST', `${P}/deny_access/${user.id}`, { token: owner.token });
    const accepted = await ctx.request('POST', `/me/accept_invitation/${invitation.body.data.id}`, {
      token: user.token,
    });
    expect(accepted.status).toBe(200);
    expect((await ctx.request('GET', P, { token: user.token })).status).toBe(404);
    const [row] = await ctx.db.query(
      'SELECT role, access_denied FROM project_membership WHERE project_id = $1 AND user_id = $2',
      [Number(projectId), user.id],
    );
    expect(row).toEqual({ role: 'MEMBER', access_denied: true });
    // with an account, a new invitation is refused: restore_access is the way back
    const again = await invite({ data: data(email), projectOnly: true });
    expect(again.status).toBe(422);
    const restored = await ctx.request('POST', `${P}/restore_access/${user.id}`, {
      token: owner.token,
    });
    expect(restored.status).toBe(200);
    expect((await ctx.request('GET', P, { token: user.token })).status).toBe(200);
  });
});
