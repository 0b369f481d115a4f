import { PlatformStack } from '../support/stack.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { RECEIVER_HOST, WEBHOOK_TEST_ENV, webhookWorld } from '../support/webhook-world.js';

/**
 * Events about the webhook endpoints themselves (docs/webhooks.md § Event catalog):
 * `webhook_endpoint.disabled` when the platform disables one.
 */
describe('webhooks: endpoint lifecycle events', () => {
  let stack: PlatformStack;
  const world = webhookWorld(() => stack, 'hook-lifecycle');
  const receivers: WebhookReceiver[] = [];
  const receiver = async () => {
    const r = await WebhookReceiver.start(RECEIVER_HOST);
    receivers.push(r);
    return r;
  };

  beforeAll(async () => {
    stack = await PlatformStack.start(WEBHOOK_TEST_ENV);
  });
  afterAll(async () => {
    await stack?.close();
    await Promise.all(receivers.map((r) => r.close()));
  });

  it('tells the organization’s other subscribed endpoints when the platform disables one (410)', async () => {
    const owner = await world.signUp('owner');
    const orgId = await world.newOrganization(owner, 'Lifecycle');
    const [gone, watcher, other, foreign] = await Promise.all([
      receiver(),
      receiver(),
      receiver(),
      receiver(),
    ]);
    gone.answerAlways(() => ({ status: 410 }));
    const g = await world.endpoint(owner, orgId, { url: gone.url(), eventTypes: ['member.*'] });
    const w = await world.endpoint(owner, orgId, {
      url: watcher.url(),
      eventTypes: ['webhook_endpoint.*'],
    });
    await world.endpoint(owner, orgId, { url: other.url(), eventTypes: ['member.*'] });
    // another tenant listening to everything hears nothing of it
    const stranger = await world.signUp('stranger');
    const strangerOrg = await world.newOrganization(stranger, 'Elsewhere');
    await world.endpoint(stranger, strangerOrg, { url: foreign.url(), eventTypes: ['*'] });

    expect((await world.ping(owner, orgId, g.id)).status).toBe(202);
    await world.until(() => watcher.received.length, 1, 4000, 'the disabled event');
    const [request] = watcher.received;
    expect(WebhookReceiver.verifies(request, w.secret)).toBe(true);
    expect(request.event).toMatchObject({
      type: 'webhook_endpoint.disabled',
      version: 1,
      organization_id: orgId,
      project_id: null,
      actor: { type: 'system', id: null },
      data: { id: g.id, project_id: null, reason: 'gone', failing_since: expect.any(String) },
    });
    expect(Object.keys(request.event.data).sort()).toEqual([
      'failing_since',
      'id',
      'project_id',
      'reason',
    ]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(watcher.received).toHaveLength(1); // once
    expect(gone.ofType('webhook_endpoint.disabled')).toEqual([]); // not to the disabled one
    expect(other.received).toEqual([]); // not selected
    // another tenant: only its own events (its wallet's wallet.created may arrive), never this
    expect(foreign.ofType('webhook_endpoint.disabled')).toEqual([]);
    expect(foreign.received.filter((r) => r.event.organization_id !== strangerOrg)).toEqual([]);
  });
});
