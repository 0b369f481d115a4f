import { webhookPingEvent } from '@wp/contracts';
import { TxHost } from '@wp/persistence';
import { TenantVersionStore } from '@wp/security';
import { SubscriptionHint } from '../../src/modules/webhooks/subscription-hint.js';
import { WebhookPublisher } from '../../src/modules/webhooks/webhook-publisher.js';
import { OrgTestContext, type TestUser } from '../support/org-test-app.js';

/**
 * docs/org.md § Transactions: a command is one transaction carried in the request context, so
 * the writes of every repository and helper it calls commit together or not at all. The
 * permission-version store is made to fail at the end of a command (after the membership row,
 * the version counters and, for a project, the project row were written in it): the answer is
 * 503 `UNAVAILABLE` (docs/architecture.md § Withdrawn permissions at once) and none of those
 * writes is left behind. The webhooks module takes no manager either: its writes find the
 * boundary through `TxHost`, roll back with it, and refuse to run without one.
 */
describe('one transaction per org command', () => {
  let ctx: OrgTestContext;
  let owner: TestUser;

  beforeAll(async () => {
    ctx = await OrgTestContext.start();
    owner = await ctx.newUser('owner');
  });
  afterAll(() => ctx.close());
  afterEach(() => jest.restoreAllMocks());

  const storeFailsOnce = () =>
    jest
      .spyOn(ctx.org.get(TenantVersionStore), 'raise')
      .mockRejectedValueOnce(new Error('store down'));
  const count = async (sql: string, params: unknown[]): Promise<number> =>
    Number((await ctx.db.query(sql, params))[0].n);

  it('a role change whose last step fails leaves the role, versions, events and audit untouched', async () => {
    const orgId = await ctx.newOrganization(owner);
    const user = await ctx.newUser('member');
    await ctx.addMember(orgId, owner, user, 'VIEWER');
    const versions = () =>
      ctx.db.query(
        `SELECT (SELECT version FROM membership_version
                  WHERE organization_id = $1 AND project_id = 0 AND user_id = $2) AS membership,
                (SELECT version FROM organization_permission_version
                  WHERE organization_id = $1) AS organization`,
        [Number(orgId), user.id],
      );
    const before = await versions();
    const mark = await ctx.outboxMark();
    const changeRole = () =>
      ctx.request('PATCH', `/organizations/${orgId}/members/${user.id}/role`, {
        token: owner.token,
        body: { role: 'MEMBER' },
      });

    storeFailsOnce();
    const refused = await changeRole();
    expect(refused.status).toBe(503);
    expect(refused.body.errors[0].code).toBe('UNAVAILABLE');
    const role = await ctx.db.query(
      'SELECT role FROM organization_membership WHERE organization_id = $1 AND user_id = $2',
      [Number(orgId), user.id],
    );
    expect(role).toEqual([{ role: 'VIEWER' }]);
    expect(await versions()).toEqual(before);
    expect(await ctx.outbox('org.membership.changed', mark)).toEqual([]);
    const audited = `SELECT count(*) AS n FROM audit_log
                      WHERE organization_id = $1 AND action = 'member.role_changed'`;
    expect(await count(audited, [Number(orgId)])).toBe(0);

    // The same command commits once the store answers: each of those writes happens then.
    const done = await changeRole();
    expect(done.status).toBe(200);
    const after = await versions();
    expect(Number(after[0].membership)).toBe(Number(before[0].membership) + 1);
    expect(Number(after[0].organization)).toBe(Number(before[0].organization) + 1);
    expect(await ctx.outbox('org.membership.changed', mark)).toHaveLength(1);
    expect(await count(audited, [Number(orgId)])).toBe(1);
  });

  it('a project creation whose last step fails leaves no project, key pair or event', async () => {
    const orgId = await ctx.newOrganization(owner);
    const mark = await ctx.outboxMark();
    const projects = () =>
      count('SELECT count(*) AS n FROM project WHERE organization_id = $1', [Number(orgId)]);
    const keys = () =>
      count('SELECT count(*) AS n FROM project_api_key WHERE organization_id = $1', [
        Number(orgId),
      ]);
    const [projectsBefore, keysBefore] = [await projects(), await keys()];

    storeFailsOnce();
    const refused = await ctx.request('POST', `/organizations/${orgId}/projects`, {
      token: owner.token,
      body: { data: { type: 'project', attributes: { name: 'Doomed' } } },
    });
    expect(refused.status).toBe(503);
    expect(await projects()).toBe(projectsBefore);
    expect(await keys()).toBe(keysBefore);
    expect(await ctx.outbox('org.project.created', mark)).toEqual([]);

    await ctx.newProject(orgId, owner, 'Kept');
    expect(await projects()).toBe(projectsBefore + 1);
    expect(await keys()).toBe(keysBefore + 1);
  });

  it("the webhooks module's writes join the open boundary and refuse without one", async () => {
    const orgId = Number(await ctx.newOrganization(owner));
    const hint = ctx.org.get(SubscriptionHint);
    const ping = webhookPingEvent({
      requestId: '00000000-0000-4000-8000-000000000001',
      endpointId: '00000000-0000-4000-8000-000000000002',
      organizationId: orgId,
      projectId: null,
      actor: null,
      at: new Date(),
    });
    const noBoundary = /no transaction is active/;
    await expect(hint.changed(orgId)).rejects.toThrow(noBoundary);
    await expect(ctx.org.get(WebhookPublisher).publish([ping])).rejects.toThrow(noBoundary);

    const mark = await ctx.outboxMark();
    const txHost = ctx.org.get(TxHost);
    await expect(
      txHost.withTransaction(async () => {
        await hint.changed(orgId);
        throw new Error('the command fails after it');
      }),
    ).rejects.toThrow('the command fails after it');
    expect(await ctx.outbox('org.webhook_subscriptions.changed', mark)).toEqual([]);
    await txHost.withTransaction(() => hint.changed(orgId));
    expect(await ctx.outbox('org.webhook_subscriptions.changed', mark)).toHaveLength(1);
  });
});
