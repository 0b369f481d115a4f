import { createHash } from 'node:crypto';
import { publishedEvents } from '@wp/event-testing';
import { waitFor } from '@wp/testing';
import { OrgTestContext, type TestUser } from '../support/org-test-app.js';

/**
 * docs/api.md § Organizations (invitations, `/me/…`), docs/api.md § States and transitions
 * (Invitation rows), docs/api.md § Errors (422 `redirect_to_add_member`);
 * docs/architecture.md § Mail and SMS (mail through `notify.requested`). Invitation tokens: 256
 * random bits, only their SHA-256 stored, 7 days.
 */
describe('organization invitations', () => {
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
  const mailsTo = async (email: string, after = 0) =>
    (await ctx.outbox('notify.requested', after)).filter((m) => m.payload.to === email);
  const tokenIn = (text: string) => /[#&]token=([A-Za-z0-9_-]+)/.exec(text)?.[1];
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

  describe('POST /organizations/{id}/invitations', () => {
    it('creates a pending invitation (201, orgRole default member) and mails a link with the token', async () => {
      const email = ctx.unknownEmail('new');
      const mark = await ctx.outboxMark();
      const started = Date.now();
      const res = await invite(email);
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({
        type: 'membershipInvitation',
        attributes: { email, orgRole: 'member', status: 'pending', organizationId: orgId },
      });
      const expiresAt = Date.parse(res.body.data.attributes.expiresAt);
      expect(expiresAt - started).toBeGreaterThan(7 * 24 * 3600_000 - 60_000);
      expect(expiresAt - started).toBeLessThan(7 * 24 * 3600_000 + 60_000);

      const [mail] = await mailsTo(email, mark);
      expect(mail.payload).toMatchObject({
        channel: 'email',
        to: email,
        subject: 'Invitation to Invite Co',
        template: 'org.invitation',
        headers: { 'X-Invitation-Id': res.body.data.id },
      });
      expect(mail.payload.text).toContain(owner.email);
      expect(mail.payload.text).toContain(`#invitation_id=${res.body.data.id}&token=`);
      const token = tokenIn(mail.payload.text)!;
      expect(token.length).toBeGreaterThanOrEqual(43);

      // only the hash is stored, and the token appears nowhere in the invitation row
      const row = await invitationRow(res.body.data.id);
      expect(row.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
      expect(JSON.stringify(row)).not.toContain(token);
      expect(JSON.stringify(res.body)).not.toContain(token);
    });

    it('puts the mail on the namespaced notify stream for auth to deliver', async () => {
      const email = ctx.unknownEmail('streamed');
      const res = await invite(email, 'viewer');
      expect(res.status).toBe(201);
      // the namespaced NOTIFY stream (embedded mode: what org's relay published)
      const found = await waitFor(
        async () =>
          (await publishedEvents(ctx.env, ctx.db, 'notify.requested')).find(
            (e) => (e.payload as { to?: string }).to === email,
          ),
        { timeoutMs: 5000, intervalMs: 200, what: 'the invitation mail on the NOTIFY stream' },
      );
      expect(found.payload).toMatchObject({ channel: 'email', template: 'org.invitation' });
      expect(found.payload.text).toContain('as viewer');
    });

    it('answers 422 redirect_to_add_member for an email with an account and writes nothing', async () => {
      const user = await ctx.newUser('existing');
      const mark = await ctx.outboxMark();
      const res = await invite(user.email.toUpperCase(), 'admin');
      expect(res.status).toBe(422);
      expect(res.body.errors[0].code).toBe('redirect_to_add_member');
      expect(res.body.errors[0].meta.redirect_to_add_member).toBe(true);
      expect(res.body.meta.redirect_to_add_member).toBe(true);
      expect(await ctx.outbox(undefined, mark)).toEqual([]);
      const rows = await ctx.db.query('SELECT 1 FROM invitation WHERE email = $1', [user.email]);
      expect(rows).toEqual([]);
    });

    it('accepts orgRole in either case and rejects unknown roles, wrong type and bad emails (400)', async () => {
      const upper = await invite(ctx.unknownEmail('upper'), 'ADMIN');
      expect(upper.status).toBe(201);
      expect(upper.body.data.attributes.orgRole).toBe('admin');
      const bad = await ctx.request('POST', `/organizations/${orgId}/invitations`, {
        token: owner.token,
        body: { data: { type: 'invitation', attributes: { email: 'nope', orgRole: 'boss' } } },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.errors.map((e: any) => e.source.pointer).sort()).toEqual([
        '/data/attributes/email',
        '/data/attributes/orgRole',
        '/data/type',
      ]);
    });

    it('answers 409 INVITATION_ALREADY_PENDING for a second invitation to the same email', async () => {
      const email = ctx.unknownEmail('dup');
      const first = await invite(email);
      const second = await invite(email.toUpperCase(), 'admin');
      expect(second.status).toBe(409);
      expect(second.body.errors[0].code).toBe('INVITATION_ALREADY_PENDING');
      expect(second.body.errors[0].meta.invitationId).toBe(first.body.data.id);
      expect((await invitationRow(first.body.data.id)).org_role).toBe('MEMBER');
    });

    it('refuses an ADMIN inviting an owner (403 INSUFFICIENT_PERMISSIONS)', async () => {
      const admin = await ctx.newUser('admin');
      await ctx.addMember(orgId, owner, admin, 'ADMIN');
      const email = ctx.unknownEmail('owner-to-be');
      const res = await invite(email, 'owner', admin);
      expect(res.status).toBe(403);
      expect(res.body.errors[0].code).toBe('INSUFFICIENT_PERMISSIONS');
      expect(await ctx.db.query('SELECT 1 FROM invitation WHERE email = $1', [email])).toEqual([]);
      expect((await invite(email, 'admin', admin)).status).toBe(201);
    });
  });

  describe('listing, resend, cancel, role change', () => {
    it('lists pending invitations, not accepted or cancelled ones', async () => {
      const org = await ctx.newOrganization(owner, 'Lists');
      const keep = await invite(ctx.unknownEmail('keep'), 'viewer', owner, org);
      const gone = await invite(ctx.unknownEmail('gone'), 'viewer', owner, org);
      await ctx.request('DELETE', `/organizations/${org}/invitations/${gone.body.data.id}`, {
        token: owner.token,
      });
      const res = await ctx.request('GET', `/organizations/${org}/invitations`, {
        token: owner.token,
      });
      expect(res.status).toBe(200);
      expect(res.body.data.map((i: any) => i.id)).toEqual([keep.body.data.id]);
    });

    it('resends at once with a new token and a renewed expiry, up to the budget, then 429 with Retry-After until a slot frees', async () => {
      const email = ctx.unknownEmail('resend');
      const created = await invite(email);
      const id = created.body.data.id;
      const resend = () =>
        ctx.request('POST', `/organizations/${orgId}/invitations/${id}/resend`, {
          token: owner.token,
        });
      const before = await invitationRow(id);
      await ctx.db.query(
        "UPDATE invitation SET expires_at = now() + interval '1 hour' WHERE id = $1",
        [id],
      );
      const first = await resend();
      expect(first.status).toBe(200);
      expect(first.body.data.attributes.sendCount).toBe(2);
      expect(Date.parse(first.body.data.attributes.expiresAt)).toBeGreaterThan(
        Date.now() + 6 * 24 * 3600_000,
      );
      const mails = await mailsTo(email);
      expect(mails).toHaveLength(2);
      const after = await invitationRow(id);
      expect(after.token_hash).not.toBe(before.token_hash);
      expect(after.token_hash).toBe(
        createHash('sha256').update(tokenIn(mails[1].payload.text)!).digest('hex'),
      );
      for (let i = 2; i <= 5; i++) expect((await resend()).status).toBe(200);
      const too = await resend();
      expect(too.status).toBe(429);
      expect(too.body.errors[0].code).toBe('INVITATION_RESEND_TOO_SOON');
      const wait = Number(too.headers['retry-after']);
      expect(wait).toBeGreaterThan(3500);
      expect(wait).toBeLessThanOrEqual(3600);
      expect(await mailsTo(email)).toHaveLength(6); // the invitation and five resends
      expect((await invitationRow(id)).send_count).toBe(6);
      // the oldest counted resend leaves the one-hour window: one slot frees
      await ctx.db.query(
        "UPDATE invitation SET resent_at[1] = now() - interval '61 minutes' WHERE id = $1",
        [id],
      );
      expect((await resend()).status).toBe(200);
      expect((await resend()).status).toBe(429);
      expect(await mailsTo(email)).toHaveLength(7);
    });

    it('cancels (204): the invitee no longer sees or can accept it', async () => {
      const email = ctx.unknownEmail('cancelled');
      const created = await invite(email);
      const res = await ctx.request(
        'DELETE',
        `/organizations/${orgId}/invitations/${created.body.data.id}`,
        { token: owner.token },
      );
      expect(res.status).toBe(204);
      const invitee = await register(email);
      const pending = await ctx.request('GET', '/me/pending_invitations', { token: invitee.token });
      expect(pending.body.data).toEqual([]);
      const accept = await ctx.request('POST', `/me/accept_invitation/${created.body.data.id}`, {
        token: invitee.token,
      });
      expect(accept.status).toBe(404);
      const again = await ctx.request(
        'DELETE',
        `/organizations/${orgId}/invitations/${created.body.data.id}`,
        { token: owner.token },
      );
      expect(again.status).toBe(404);
    });

    it('changes the orgRole of a pending invitation (PATCH), within the caller’s own level', async () => {
      const created = await invite(ctx.unknownEmail('patched'));
      const id = created.body.data.id;
      const res = await ctx.request('PATCH', `/organizations/${orgId}/invitations/${id}`, {
        token: owner.token,
        body: { data: { type: 'membershipInvitation', attributes: { orgRole: 'admin' } } },
      });
      expect(res.status).toBe(200);
      expect(res.body.data.attributes.orgRole).toBe('admin');
      expect((await invitationRow(id)).org_role).toBe('ADMIN');

      const admin = await ctx.newUser('patch-admin');
      await ctx.addMember(orgId, owner, admin, 'ADMIN');
      const up = await ctx.request('PATCH', `/organizations/${orgId}/invitations/${id}`, {
        token: admin.token,
        body: { data: { attributes: { orgRole: 'owner' } } },
      });
      expect(up.status).toBe(403);
      expect(up.body.errors[0].code).toBe('INSUFFICIENT_PERMISSIONS');
      const missing = await ctx.request('PATCH', `/organizations/${orgId}/invitations/${id}`, {
        token: owner.token,
        body: { data: { attributes: {} } },
      });
      expect(missing.status).toBe(400);
      expect(missing.body.errors[0].source.pointer).toBe('/data/attributes/orgRole');
      expect((await invitationRow(id)).org_role).toBe('ADMIN');
    });

    it('answers 404 for an invitation id of another organization', async () => {
      const other = await ctx.newOrganization(owner, 'Other');
      const created = await invite(ctx.unknownEmail('elsewhere'), 'member', owner, other);
      const res = await ctx.request(
        'DELETE',
        `/organizations/${orgId}/invitations/${created.body.data.id}`,
        { token: owner.token },
      );
      expect(res.status).toBe(404);
      expect((await invitationRow(created.body.data.id)).status).toBe('pending');
    });
  });
});
