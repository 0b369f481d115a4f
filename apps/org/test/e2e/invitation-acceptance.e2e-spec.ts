import { OrgTestContext, type TestUser } from '../support/org-test-app.js';

/**
 * docs/api.md § Organizations (`/me/pending_invitations`, accept, reject) and
 * docs/api.md § States and transitions (Invitation rows), from the invitee's side.
 */
describe('organization invitations: the invitee', () => {
  let ctx: OrgTestContext;
  let owner: TestUser;
  let orgId: string;

  beforeAll(async () => {
    ctx = await OrgTestContext.start();
    owner = await ctx.newUser('owner');
    orgId = await ctx.newOrganization(owner, 'Invite Co');
  });
  afterAll(() => ctx.close());

  const invite = (email: string, orgRole?: string, actor = owner, org = orgId) =>
    ctx.request('POST', `/organizations/${org}/invitations`, {
      token: actor.token,
      body: {
        data: {
          type: 'membershipInvitation',
          attributes: { email, ...(orgRole ? { orgRole } : {}) },
        },
      },
    });
  const invitationRow = async (id: string) =>
    (await ctx.db.query('SELECT * FROM invitation WHERE id = $1', [id]))[0];
  /** Registers the invited address as an account. */
  const register = async (email: string): Promise<TestUser> => {
    const res = await ctx.auth.inject({
      method: 'POST',
      url: '/v1/api/users',
      headers: { 'api-key': ctx.env.keys.apiKey },
      payload: { username: email, password: 'a long test password' },
    });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    return { id: data.id, email: data.attributes.email, token: data.attributes.accessToken };
  };

  describe('the invitee: /me/pending_invitations, accept, reject', () => {
    it('shows an invitation to a user who registers with the invited email (any case), and accepting joins with the role', async () => {
      const email = ctx.unknownEmail('Joiner');
      const created = await invite(email.toUpperCase(), 'admin');
      expect(created.body.data.attributes.email).toBe(email.toUpperCase()); // as typed
      const invitee = await register(email);

      const pending = await ctx.request('GET', '/me/pending_invitations', { token: invitee.token });
      expect(pending.status).toBe(200);
      expect(pending.body.data).toHaveLength(1);
      expect(pending.body.data[0]).toMatchObject({
        id: created.body.data.id,
        attributes: { orgRole: 'admin', organizationName: 'Invite Co', projectName: null },
      });

      const mark = await ctx.outboxMark();
      const res = await ctx.request('POST', `/me/accept_invitation/${created.body.data.id}`, {
        token: invitee.token,
      });
      expect(res.status).toBe(200);
      expect(res.body.data.attributes.status).toBe('accepted');
      const org = await ctx.request('GET', `/organizations/${orgId}`, { token: invitee.token });
      expect(org.status).toBe(200);
      expect(org.body.meta.role).toBe('ADMIN');
      const events = await ctx.outbox('org.membership.changed', mark);
      expect(events.map((e) => e.payload)).toEqual([
        {
          organizationId: Number(orgId),
          projectId: null,
          userId: invitee.id,
          role: 'ADMIN',
          accessDenied: false,
          version: 1,
          organizationVersion: expect.any(Number),
        },
      ]);

      const twice = await ctx.request('POST', `/me/accept_invitation/${created.body.data.id}`, {
        token: invitee.token,
      });
      expect(twice.status).toBe(409);
      expect(twice.body.errors[0].code).toBe('INVITATION_NOT_PENDING');
      const after = await ctx.request('GET', '/me/pending_invitations', { token: invitee.token });
      expect(after.body.data).toEqual([]);
    });

    it('lets only the invited user accept or reject: anyone else gets 404 and nothing changes', async () => {
      const created = await invite(ctx.unknownEmail('target'));
      const intruder = await ctx.newUser('intruder');
      const mine = await ctx.request('GET', '/me/pending_invitations', { token: intruder.token });
      expect(mine.body.data).toEqual([]);
      const accept = await ctx.request('POST', `/me/accept_invitation/${created.body.data.id}`, {
        token: intruder.token,
      });
      expect(accept.status).toBe(404);
      const reject = await ctx.request('DELETE', `/me/reject_invitation/${created.body.data.id}`, {
        token: intruder.token,
      });
      expect(reject.status).toBe(404);
      expect((await invitationRow(created.body.data.id)).status).toBe('pending');
      const org = await ctx.request('GET', `/organizations/${orgId}`, { token: intruder.token });
      expect(org.status).toBe(404);
    });

    it('rejects: the invitation is no longer pending and no membership is made', async () => {
      const email = ctx.unknownEmail('decliner');
      const created = await invite(email);
      const invitee = await register(email);
      const res = await ctx.request('DELETE', `/me/reject_invitation/${created.body.data.id}`, {
        token: invitee.token,
      });
      expect(res.status).toBe(200);
      expect(res.body.data.attributes.status).toBe('rejected');
      const org = await ctx.request('GET', `/organizations/${orgId}`, { token: invitee.token });
      expect(org.status).toBe(404);
      const list = await ctx.request('GET', `/organizations/${orgId}/invitations`, {
        token: owner.token,
      });
      expect(list.body.data.map((i: any) => i.id)).not.toContain(created.body.data.id);
    });

    it('refuses an expired invitation (422 INVITATION_EXPIRED); a resend renews it', async () => {
      const email = ctx.unknownEmail('late');
      const created = await invite(email);
      const id = created.body.data.id;
      await ctx.db.query(
        "UPDATE invitation SET expires_at = now() - interval '1 minute', last_sent_at = now() - interval '8 days' WHERE id = $1",
        [id],
      );
      const invitee = await register(email);
      const listed = await ctx.request('GET', `/organizations/${orgId}/invitations`, {
        token: owner.token,
      });
      expect(listed.body.data.find((i: any) => i.id === id).attributes.status).toBe('expired');
      const mine = await ctx.request('GET', '/me/pending_invitations', { token: invitee.token });
      expect(mine.body.data).toEqual([]);
      const late = await ctx.request('POST', `/me/accept_invitation/${id}`, {
        token: invitee.token,
      });
      expect(late.status).toBe(422);
      expect(late.body.errors[0].code).toBe('INVITATION_EXPIRED');
      expect((await invitationRow(id)).status).toBe('pending');

      const resent = await ctx.request('POST', `/organizations/${orgId}/invitations/${id}/resend`, {
        token: owner.token,
      });
      expect(resent.status).toBe(200);
      expect(resent.body.data.attributes.status).toBe('pending');
      const ok = await ctx.request('POST', `/me/accept_invitation/${id}`, { token: invitee.token });
      expect(ok.status).toBe(200);
    });

    it('replaces an expired pending invitation when the same email is invited again', async () => {
      const email = ctx.unknownEmail('again');
      const first = await invite(email);
      await ctx.db.query(
        "UPDATE invitation SET expires_at = now() - interval '1 minute' WHERE id = $1",
        [first.body.data.id],
      );
      const second = await invite(email, 'viewer');
      expect(second.status).toBe(201);
      expect(second.body.data.id).toBe(first.body.data.id);
      expect(second.body.data.attributes).toMatchObject({ orgRole: 'viewer', status: 'pending' });
    });

    it('answers 400 for a malformed invitation id', async () => {
      const res = await ctx.request('POST', '/me/accept_invitation/123', { token: owner.token });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].source.parameter).toBe('invitationId');
    });
  });
});
