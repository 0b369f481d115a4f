import { randomUUID } from 'node:crypto';
import type { EventPayload } from '@wp/contracts';
import { publishEvent } from '@wp/event-testing';
import { waitFor } from '@wp/testing';
import { OrgTestContext, type TestUser } from '../support/org-test-app.js';

/**
 * Org's user directory (names and emails shown beside memberships) is a read model of auth's
 * `auth.user.*` events, delivered at least once and possibly out of order: an older snapshot
 * delivered after a newer one must not bring back the old name or email
 * (docs/architecture.md § Consistency). Events are published through the real transport, as
 * auth's outbox relay does.
 */
describe('org user directory', () => {
  let ctx: OrgTestContext;
  let user: TestUser;

  beforeAll(async () => {
    ctx = await OrgTestContext.start();
    user = await ctx.newUser('directory');
    await ctx.directoryHas(user.id);
  });
  afterAll(async () => {
    await ctx.close();
  });

  /** Publishes `auth.user.updated` with the given event time and waits until org applied it. */
  const deliver = async (payload: EventPayload<'auth.user.updated'>, occurredAt: string) => {
    const id = randomUUID();
    const subject = 'auth.user.updated';
    await publishEvent(ctx.org, subject, payload, { id, occurredAt });
    await waitFor(
      async () =>
        (
          await ctx.db.query(
            `SELECT 1 FROM processed_event WHERE consumer = 'org.directory_updated' AND event_id = $1`,
            [id],
          )
        ).length > 0,
      { what: `auth.user.updated ${id} processed by org` },
    );
  };
  const stored = async (userId: string) =>
    (
      await ctx.db.query(
        'SELECT email, first_name, last_name, occurred_at FROM directory_user WHERE id = $1',
        [userId],
      )
    )[0];
  const snapshot = (email: string, firstName: string) => ({
    userId: user.id,
    email,
    phone: null,
    firstName,
    lastName: 'Directory',
    status: 'active' as const,
  });

  it('keeps the newer name and email when an older auth.user.updated arrives after it', async () => {
    const newer = new Date(Date.now() + 60_000).toISOString();
    const older = new Date(Date.now() + 30_000).toISOString();
    await deliver(snapshot('new@example.com', 'New'), newer);
    expect(await stored(user.id)).toMatchObject({ email: 'new@example.com', first_name: 'New' });

    await deliver(snapshot('old@example.com', 'Old'), older);
    const after = await stored(user.id);
    expect(after).toMatchObject({ email: 'new@example.com', first_name: 'New' });
    expect(new Date(after.occurred_at).toISOString()).toBe(newer);
  });

  it('shows the newer name in the members list', async () => {
    const orgId = await ctx.newOrganization(user);
    const res = await ctx.request('GET', `/organizations/${orgId}/users`, { token: user.token });
    expect(res.status).toBe(200);
    const me = res.body.data.find((u: { id: string }) => u.id === user.id);
    expect(me.attributes).toMatchObject({ email: 'new@example.com', firstName: 'New' });
  });

  it('applies a snapshot newer than the stored one', async () => {
    await deliver(
      snapshot('newest@example.com', 'Newest'),
      new Date(Date.now() + 120_000).toISOString(),
    );
    expect(await stored(user.id)).toMatchObject({
      email: 'newest@example.com',
      first_name: 'Newest',
    });
  });
});
