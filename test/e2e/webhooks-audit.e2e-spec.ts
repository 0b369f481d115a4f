import { PlatformStack } from '../support/stack.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import {
  RECEIVER_HOST,
  WEBHOOK_TEST_ENV,
  webhookWorld,
  type Account,
} from '../support/webhook-world.js';

/**
 * Endpoint management in the organization audit log (docs/org.md § Audit log): every change of
 * an endpoint is an entry of its organization, never with the secret or the URL's path.
 */
describe('webhooks: endpoint management is audited', () => {
  let stack: PlatformStack;
  const world = webhookWorld(() => stack, 'hook-audit');
  let receiver: WebhookReceiver;
  let ownerA: Account;
  let ownerB: Account;
  let orgA: string;
  let orgB: string;

  beforeAll(async () => {
    stack = await PlatformStack.start(WEBHOOK_TEST_ENV);
    receiver = await WebhookReceiver.start(RECEIVER_HOST);
    ownerA = await world.signUp('owner-a');
    ownerB = await world.signUp('owner-b');
    orgA = await world.newOrganization(ownerA, 'Audited');
    orgB = await world.newOrganization(ownerB, 'Other');
  });
  afterAll(async () => {
    await stack?.close();
    await receiver?.close();
  });

  const auditLog = async (orgId: string, owner: Account) => {
    const res = await stack.request('GET', `/v1/api/organizations/${orgId}/audit_log?limit=100`, {
      token: owner.token,
    });
    expect(res.status).toBe(200);
    return (res.body.data as { attributes: any }[])
      .map((d) => d.attributes)
      .filter((a) => String(a.action).startsWith('webhook_endpoint.'));
  };

  it('records create, update, disable, enable, rotate_secret and delete, without the secret', async () => {
    const base = world.endpoints(orgA);
    const created = await world.endpoint(ownerA, orgA, {
      url: receiver.url('/hook?token=receiver-credential'),
      eventTypes: ['member.*'],
    });
    const patch = (attributes: Record<string, unknown>) =>
      stack.request('PATCH', `${base}/${created.id}`, {
        token: ownerA.token,
        body: { data: { type: 'webhook_endpoints', attributes } },
      });
    expect((await patch({ eventTypes: ['member.*', 'project.*'], description: 'x' })).status).toBe(
      200,
    );
    expect((await patch({ enabled: false })).status).toBe(200);
    expect((await patch({ enabled: true })).status).toBe(200);
    const rotated = await stack.request('POST', `${base}/${created.id}/rotate_secret`, {
      token: ownerA.token,
    });
    expect(rotated.status).toBe(200);
    const newSecret = rotated.body.meta.secret as string;
    // a refused change is no entry
    expect((await patch({ eventTypes: ['no.such_type'] })).status).toBe(400);
    expect(
      (await stack.request('DELETE', `${base}/${created.id}`, { token: ownerA.token })).status,
    ).toBe(204);

    const entries = await auditLog(orgA, ownerA);
    expect(entries.map((e) => e.action).reverse()).toEqual([
      'webhook_endpoint.created',
      'webhook_endpoint.updated',
      'webhook_endpoint.disabled',
      'webhook_endpoint.enabled',
      'webhook_endpoint.secret_rotated',
      'webhook_endpoint.deleted',
    ]);
    for (const entry of entries) {
      expect(entry).toMatchObject({
        outcome: 'success',
        service: 'org',
        actor: { type: 'user', id: ownerA.id, email: ownerA.email },
        target: {
          type: 'webhook_endpoint',
          id: created.id,
          label: `http://${RECEIVER_HOST}:${receiver.port}`,
        },
      });
    }
    const byAction = Object.fromEntries(entries.map((e) => [e.action, e.details]));
    expect(byAction['webhook_endpoint.created']).toMatchObject({
      eventTypes: 'member.*',
      projectId: null,
      enabled: true,
    });
    expect(byAction['webhook_endpoint.updated']).toEqual({
      changed: 'description,eventTypes',
      eventTypes: 'member.*,project.*',
    });
    const text = JSON.stringify(entries);
    for (const secret of [created.secret, newSecret, 'whsec_', 'receiver-credential']) {
      expect(text).not.toContain(secret);
    }
    // the other organization sees none of it
    expect(await auditLog(orgB, ownerB)).toEqual([]);
  });
});
