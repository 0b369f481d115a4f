import { OrgTestContext, type TestUser } from '../support/org-test-app.js';

/**
 * docs/api.md § Organizations (users, add_user, members/{userId}/role, remove_user) and
 * docs/api.md § Errors (`CANNOT_CHANGE_OWN_ROLE`, `INVALID_ROLE_TRANSITION`,
 * `INSUFFICIENT_PERMISSIONS`), with docs/architecture.md § Data ownership and events
 * (`org.membership.changed` for every change) and
 * docs/architecture.md § Decisions where the contract is silent (statuses).
 */
describe('organization members and roles', () => {
  let ctx: OrgTestContext;
  let owner: TestUser;

  beforeAll(async () => {
    ctx = await OrgTestContext.start();
    owner = await ctx.newUser('owner');
  });
  afterAll(() => ctx.close());

  const roleOf = async (orgId: string, userId: string): Promise<string | null> => {
    const rows = await ctx.db.query(
      'SELECT role FROM organization_membership WHERE organization_id = $1 AND user_id = $2',
      [Number(orgId), userId],
    );
    return rows[0]?.role ?? null;
  };
  const membershipEvents = async (orgId: string, userId: string, after = 0) =>
    (await ctx.outbox('org.membership.changed', after))
      .map((e) => e.payload)
      .filter((p) => p.organizationId === Number(orgId) && p.userId === userId);
  const setRole = (orgId: string, actor: TestUser, userId: string, body: unknown) =>
    ctx.request('PATCH', `/organizations/${orgId}/members/${userId}/role`, {
      token: actor.token,
      body,
    });

  describe('GET /organizations/{id}/users', () => {
    it('lists every member with role and directory names to any member', async () => {
      const orgId = await ctx.newOrganization(owner);
      const viewer = await ctx.newUser('viewer');
      await ctx.addMember(orgId, owner, viewer, 'VIEWER');
      await ctx.directoryHas(owner.id);
      const res = await ctx.request('GET', `/organizations/${orgId}/users`, {
        token: viewer.token,
      });
      expect(res.status).toBe(200);
      const byId = Object.fromEntries(res.body.data.map((u: any) => [u.id, u]));
      expect(byId[owner.id]).toMatchObject({
        type: 'users',
        attributes: { role: 'OWNER', email: owner.email },
      });
      expect(byId[viewer.id].attributes).toMatchObject({ role: 'VIEWER', email: viewer.email });
    });
  });

  describe('POST /organizations/{id}/add_user', () => {
    it('adds an existing account with the role (201, member_added) and publishes the change', async () => {
      const orgId = await ctx.newOrganization(owner);
      const user = await ctx.newUser('joiner');
      const mark = await ctx.outboxMark();
      const res = await ctx.request('POST', `/organizations/${orgId}/add_user`, {
        token: owner.token,
        body: {
          data: { type: 'users', attributes: { email: user.email.toUpperCase(), role: 'admin' } },
        },
      });
      expect(res.status).toBe(201);
      expect(res.body.meta.result).toBe('member_added');
      expect(res.body.data).toMatchObject({
        type: 'users',
        id: user.id,
        attributes: { role: 'ADMIN', email: user.email },
      });
      expect(await roleOf(orgId, user.id)).toBe('ADMIN');
      expect(await membershipEvents(orgId, user.id, mark)).toEqual([
        {
          organizationId: Number(orgId),
          projectId: null,
          userId: user.id,
          role: 'ADMIN',
          accessDenied: false,
          version: 1,
          organizationVersion: expect.any(Number),
        },
      ]);
      // no invitation, no mail for an existing account
      expect(await ctx.outbox('notify.requested', mark)).toEqual([]);
    });

    it('finds an account registered a moment ago (asks auth, not the read model)', async () => {
      const orgId = await ctx.newOrganization(owner);
      const fresh = await ctx.newUser('fresh'); // no wait for auth.user.* events
      const res = await ctx.addMember(orgId, owner, fresh, 'MEMBER');
      expect(res.body.meta.result).toBe('member_added');
      expect(await roleOf(orgId, fresh.id)).toBe('MEMBER');
    });

    it('invites an email without an account instead (201, invitation_sent) and mails it', async () => {
      const orgId = await ctx.newOrganization(owner, 'Mail Co');
      const email = ctx.unknownEmail('invitee');
      const mark = await ctx.outboxMark();
      const res = await ctx.request('POST', `/organizations/${orgId}/add_user`, {
        token: owner.token,
        body: { data: { type: 'users', attributes: { email, role: 'VIEWER' } } },
      });
      expect(res.status).toBe(201);
      expect(res.body.meta.result).toBe('invitation_sent');
      expect(res.body.data).toMatchObject({
        type: 'membershipInvitation',
        attributes: { email, orgRole: 'viewer', status: 'pending' },
      });
      const mails = await ctx.outbox('notify.requested', mark);
      expect(mails).toHaveLength(1);
      expect(mails[0].payload).toMatchObject({
        channel: 'email',
        to: email,
        template: 'org.invitation',
      });
      expect(mails[0].payload.text).toContain('Mail Co');
      expect(await ctx.outbox('org.membership.changed', mark)).toEqual([]);
    });

    it('answers 409 ALREADY_MEMBER for a member and changes nothing', async () => {
      const orgId = await ctx.newOrganization(owner);
      const user = await ctx.newUser('twice');
      await ctx.addMember(orgId, owner, user, 'MEMBER');
      const mark = await ctx.outboxMark();
      const res = await ctx.request('POST', `/organizations/${orgId}/add_user`, {
        token: owner.token,
        body: { data: { type: 'users', attributes: { email: user.email, role: 'ADMIN' } } },
      });
      expect(res.status).toBe(409);
      expect(res.body.errors[0].code).toBe('ALREADY_MEMBER');
      expect(await roleOf(orgId, user.id)).toBe('MEMBER');
      expect(await ctx.outbox(undefined, mark)).toEqual([]);
    });

    it('refuses an ADMIN adding an OWNER with 403 INSUFFICIENT_PERMISSIONS', async () => {
      const orgId = await ctx.newOrganization(owner);
      const admin = await ctx.newUser('admin');
      const user = await ctx.newUser('would-be-owner');
      await ctx.addMember(orgId, owner, admin, 'ADMIN');
      const res = await ctx.request('POST', `/organizations/${orgId}/add_user`, {
        token: admin.token,
        body: { data: { type: 'users', attributes: { email: user.email, role: 'OWNER' } } },
      });
      expect(res.status).toBe(403);
      expect(res.body.errors[0].code).toBe('INSUFFICIENT_PERMISSIONS');
      expect(await roleOf(orgId, user.id)).toBeNull();
    });

    it('validates the body: type users, an email, a known role (400 with pointers)', async () => {
      const orgId = await ctx.newOrganization(owner);
      const res = await ctx.request('POST', `/organizations/${orgId}/add_user`, {
        token: owner.token,
        body: { data: { type: 'user', attributes: { email: 'not-an-email', role: 'KING' } } },
      });
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: any) => e.source.pointer).sort()).toEqual([
        '/data/attributes/email',
        '/data/attributes/role',
        '/data/type',
      ]);
    });
  });

  describe('PATCH /organizations/{id}/members/{userId}/role', () => {
    it('changes a role (body `role` or data.attributes.role) and publishes a higher version', async () => {
      const orgId = await ctx.newOrganization(owner);
      const user = await ctx.newUser('promoted');
      await ctx.addMember(orgId, owner, user, 'VIEWER');
      const top = await setRole(orgId, owner, user.id, { role: 'MEMBER' });
      expect(top.status).toBe(200);
      expect(top.body.data).toMatchObject({ id: user.id, attributes: { role: 'MEMBER' } });
      const nested = await setRole(orgId, owner, user.id, {
        data: { attributes: { role: 'ADMIN' } },
      });
      expect(nested.status).toBe(200);
      expect(await roleOf(orgId, user.id)).toBe('ADMIN');
      const events = await membershipEvents(orgId, user.id);
      expect(events.map((e) => [e.role, e.version])).toEqual([
        ['VIEWER', 1],
        ['MEMBER', 2],
        ['ADMIN', 3],
      ]);
    });

    it('answers 422 CANNOT_CHANGE_OWN_ROLE when a user changes their own role', async () => {
      const orgId = await ctx.newOrganization(owner);
      const admin = await ctx.newUser('self-admin');
      await ctx.addMember(orgId, owner, admin, 'ADMIN');
      for (const [actor, role] of [
        [owner, 'ADMIN'],
        [admin, 'MEMBER'],
      ] as const) {
        const res = await setRole(orgId, actor, actor.id, { role });
        expect(res.status).toBe(422);
        expect(res.body.errors[0].code).toBe('CANNOT_CHANGE_OWN_ROLE');
      }
      expect(await roleOf(orgId, owner.id)).toBe('OWNER');
      expect(await roleOf(orgId, admin.id)).toBe('ADMIN');
    });

    it('answers 403 INSUFFICIENT_PERMISSIONS when an ADMIN promotes to OWNER or touches an OWNER who is not the last', async () => {
      const orgId = await ctx.newOrganization(owner);
      const admin = await ctx.newUser('admin');
      const member = await ctx.newUser('member');
      const coOwner = await ctx.newUser('co-owner');
      await ctx.addMember(orgId, owner, admin, 'ADMIN');
      await ctx.addMember(orgId, owner, member, 'MEMBER');
      await ctx.addMember(orgId, owner, coOwner, 'OWNER');
      const mark = await ctx.outboxMark();
      const promote = await setRole(orgId, admin, member.id, { role: 'OWNER' });
      expect(promote.status).toBe(403);
      expect(promote.body.errors[0].code).toBe('INSUFFICIENT_PERMISSIONS');
      const demoteOwner = await setRole(orgId, admin, owner.id, { role: 'MEMBER' });
      expect(demoteOwner.status).toBe(403);
      expect(demoteOwner.body.errors[0].code).toBe('INSUFFICIENT_PERMISSIONS');
      expect(await roleOf(orgId, member.id)).toBe('MEMBER');
      expect(await roleOf(orgId, owner.id)).toBe('OWNER');
      expect(await ctx.outbox(undefined, mark)).toEqual([]);
      // within their own level an ADMIN may act
      const ok = await setRole(orgId, admin, member.id, { role: 'ADMIN' });
      expect(ok.status).toBe(200);
    });

    it('answers 422 INVALID_ROLE_TRANSITION for demoting the last OWNER, whoever asks (an ADMIN too)', async () => {
      const orgId = await ctx.newOrganization(owner);
      const admin = await ctx.newUser('admin');
      await ctx.addMember(orgId, owner, admin, 'ADMIN');
      const mark = await ctx.outboxMark();
      for (const role of ['ADMIN', 'MEMBER', 'VIEWER']) {
        const res = await setRole(orgId, admin, owner.id, { role });
        expect(res.status).toBe(422);
        expect(res.body.errors[0].code).toBe('INVALID_ROLE_TRANSITION');
      }
      // Setting the last OWNER to OWNER is no demotion: the role ceiling decides (403).
      const same = await setRole(orgId, admin, owner.id, { role: 'OWNER' });
      expect(same.status).toBe(403);
      expect(same.body.errors[0].code).toBe('INSUFFICIENT_PERMISSIONS');
      // Changing one's own role is refused first, the last OWNER included.
      const self = await setRole(orgId, owner, owner.id, { role: 'ADMIN' });
      expect(self.status).toBe(422);
      expect(self.body.errors[0].code).toBe('CANNOT_CHANGE_OWN_ROLE');
      expect(await roleOf(orgId, owner.id)).toBe('OWNER');
      expect(await ctx.outbox(undefined, mark)).toEqual([]);
    });

    it('lets an OWNER hand over ownership, after which the former owner can be demoted', async () => {
      const orgId = await ctx.newOrganization(owner);
      const heir = await ctx.newUser('heir');
      await ctx.addMember(orgId, owner, heir, 'ADMIN');
      expect((await setRole(orgId, owner, heir.id, { role: 'OWNER' })).status).toBe(200);
      const demote = await setRole(orgId, heir, owner.id, { role: 'ADMIN' });
      expect(demote.status).toBe(200);
      expect(await roleOf(orgId, owner.id)).toBe('ADMIN');
      expect(await roleOf(orgId, heir.id)).toBe('OWNER');
    });

    it('refuses MEMBER and VIEWER with 403 FORBIDDEN', async () => {
      const orgId = await ctx.newOrganization(owner);
      const member = await ctx.newUser('member');
      const viewer = await ctx.newUser('viewer');
      await ctx.addMember(orgId, owner, member, 'MEMBER');
      await ctx.addMember(orgId, owner, viewer, 'VIEWER');
      const res = await setRole(orgId, member, viewer.id, { role: 'MEMBER' });
      expect(res.status).toBe(403);
      expect(res.body.errors[0].code).toBe('FORBIDDEN');
      expect(await roleOf(orgId, viewer.id)).toBe('VIEWER');
    });

    it('answers 404 for a user who is not a member, 400 for a bad role or a missing role', async () => {
      const orgId = await ctx.newOrganization(owner);
      const stranger = await ctx.newUser('stranger');
      const missing = await setRole(orgId, owner, stranger.id, { role: 'MEMBER' });
      expect(missing.status).toBe(404);
      expect(missing.body.errors[0].code).toBe('MEMBER_NOT_FOUND');
      const bad = await setRole(orgId, owner, stranger.id, { role: 'EMPEROR' });
      expect(bad.status).toBe(400);
      expect(bad.body.errors[0].source.pointer).toBe('/role');
      const none = await setRole(orgId, owner, stranger.id, {});
      expect(none.status).toBe(400);
      expect(none.body.errors[0].source.pointer).toBe('/role');
      const badId = await setRole(orgId, owner, 'not-a-uuid', { role: 'MEMBER' });
      expect(badId.status).toBe(400);
      expect(badId.body.errors[0].source.parameter).toBe('userId');
    });
  });

  describe('DELETE /organizations/{id}/remove_user/{userId}', () => {
    it('removes a member (204), publishes role null, and re-adding continues the version', async () => {
      const orgId = await ctx.newOrganization(owner);
      const user = await ctx.newUser('removed');
      await ctx.addMember(orgId, owner, user, 'MEMBER');
      const res = await ctx.request('DELETE', `/organizations/${orgId}/remove_user/${user.id}`, {
        token: owner.token,
      });
      expect(res.status).toBe(204);
      expect(await roleOf(orgId, user.id)).toBeNull();
      const lost = await ctx.request('GET', `/organizations/${orgId}`, { token: user.token });
      expect(lost.status).toBe(404);
      await ctx.addMember(orgId, owner, user, 'VIEWER');
      const events = await membershipEvents(orgId, user.id);
      expect(events.map((e) => [e.role, e.version])).toEqual([
        ['MEMBER', 1],
        [null, 2],
        ['VIEWER', 3],
      ]);
    });

    it('lets a member leave on their own, but not the last OWNER (422 INVALID_ROLE_TRANSITION)', async () => {
      const orgId = await ctx.newOrganization(owner);
      const viewer = await ctx.newUser('leaver');
      await ctx.addMember(orgId, owner, viewer, 'VIEWER');
      const leave = await ctx.request(
        'DELETE',
        `/organizations/${orgId}/remove_user/${viewer.id}`,
        {
          token: viewer.token,
        },
      );
      expect(leave.status).toBe(204);
      expect(await roleOf(orgId, viewer.id)).toBeNull();

      const last = await ctx.request('DELETE', `/organizations/${orgId}/remove_user/${owner.id}`, {
        token: owner.token,
      });
      expect(last.status).toBe(422);
      expect(last.body.errors[0].code).toBe('INVALID_ROLE_TRANSITION');
      expect(await roleOf(orgId, owner.id)).toBe('OWNER');
    });

    it('lets one of two owners leave', async () => {
      const orgId = await ctx.newOrganization(owner);
      const coOwner = await ctx.newUser('co-owner');
      await ctx.addMember(orgId, owner, coOwner, 'OWNER');
      const res = await ctx.request('DELETE', `/organizations/${orgId}/remove_user/${coOwner.id}`, {
        token: coOwner.token,
      });
      expect(res.status).toBe(204);
    });

    it('refuses an ADMIN removing the last OWNER (422 INVALID_ROLE_TRANSITION) or another OWNER (403 INSUFFICIENT_PERMISSIONS), and a MEMBER removing anyone (403)', async () => {
      const orgId = await ctx.newOrganization(owner);
      const admin = await ctx.newUser('admin');
      const member = await ctx.newUser('member');
      await ctx.addMember(orgId, owner, admin, 'ADMIN');
      await ctx.addMember(orgId, owner, member, 'MEMBER');
      const removeOwner = () =>
        ctx.request('DELETE', `/organizations/${orgId}/remove_user/${owner.id}`, {
          token: admin.token,
        });
      const last = await removeOwner();
      expect(last.status).toBe(422);
      expect(last.body.errors[0].code).toBe('INVALID_ROLE_TRANSITION');
      const coOwner = await ctx.newUser('co-owner');
      await ctx.addMember(orgId, owner, coOwner, 'OWNER');
      const byAdmin = await removeOwner();
      expect(byAdmin.status).toBe(403);
      expect(byAdmin.body.errors[0].code).toBe('INSUFFICIENT_PERMISSIONS');
      const byMember = await ctx.request(
        'DELETE',
        `/organizations/${orgId}/remove_user/${admin.id}`,
        {
          token: member.token,
        },
      );
      expect(byMember.status).toBe(403);
      expect(byMember.body.errors[0].code).toBe('FORBIDDEN');
      expect(await roleOf(orgId, owner.id)).toBe('OWNER');
      expect(await roleOf(orgId, admin.id)).toBe('ADMIN');
    });

    it('serializes concurrent demotions so the organization keeps an owner', async () => {
      const orgId = await ctx.newOrganization(owner);
      const other = await ctx.newUser('other-owner');
      await ctx.addMember(orgId, owner, other, 'OWNER');
      const [a, b] = await Promise.all([
        ctx.request('DELETE', `/organizations/${orgId}/remove_user/${owner.id}`, {
          token: owner.token,
        }),
        ctx.request('DELETE', `/organizations/${orgId}/remove_user/${other.id}`, {
          token: other.token,
        }),
      ]);
      expect([a.status, b.status].sort()).toEqual([204, 422]);
      const [{ n }] = await ctx.db.query(
        "SELECT count(*)::int AS n FROM organization_membership WHERE organization_id = $1 AND role = 'OWNER'",
        [Number(orgId)],
      );
      expect(n).toBe(1);
    });
  });
});
