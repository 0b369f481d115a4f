import { WEBHOOK_EVENT_CATALOG, WebhookEnvelope } from '@wp/contracts';
import { waitFor } from '@wp/testing';
import { PlatformStack } from '../support/stack.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import {
  RECEIVER_HOST,
  WEBHOOK_TEST_ENV,
  webhookWorld,
  type Account,
} from '../support/webhook-world.js';

/**
 * Webhooks through the gateway, in both modes (docs/org.md § Webhooks): an endpoint receives
 * its organization's events within 2 s, signed per Standard Webhooks (verified here with the
 * `standardwebhooks` library, as a client would) and shaped as the catalog documents; another
 * organization's endpoint and a project-scoped endpoint of another project never do; failures
 * are retried on the (compressed) schedule and logged; a rotated secret signs beside the new one
 * during the overlap, then no more. Receivers are real HTTP servers.
 */
describe('webhooks: delivery, isolation, retries, rotation', () => {
  let stack: PlatformStack;
  const world = webhookWorld(() => stack, 'webhooks');
  let receiverA: WebhookReceiver;
  let receiverB: WebhookReceiver;
  let receiverP: WebhookReceiver;
  let ownerA: Account;
  let ownerB: Account;
  let orgA: string;
  let orgB: string;

  beforeAll(async () => {
    stack = await PlatformStack.start(WEBHOOK_TEST_ENV);
    [receiverA, receiverB, receiverP] = await Promise.all([
      WebhookReceiver.start(RECEIVER_HOST),
      WebhookReceiver.start(RECEIVER_HOST),
      WebhookReceiver.start(RECEIVER_HOST),
    ]);
    ownerA = await world.signUp('owner-a');
    ownerB = await world.signUp('owner-b');
    orgA = await world.newOrganization(ownerA, 'Alpha');
    orgB = await world.newOrganization(ownerB, 'Beta');
  });
  afterAll(async () => {
    await stack?.close();
    await Promise.all([receiverA, receiverB, receiverP].map((r) => r?.close()));
  });

  it('delivers a member.added to its organization’s endpoints only, signed and documented, within 2 s', async () => {
    const projectA = await world.newProject(ownerA, orgA, 'Scoped');
    const a = await world.endpoint(ownerA, orgA, { url: receiverA.url(), eventTypes: ['*'] });
    const b = await world.endpoint(ownerB, orgB, { url: receiverB.url(), eventTypes: ['*'] });
    const p = await world.endpoint(ownerA, orgA, {
      url: receiverP.url(),
      eventTypes: ['*'],
      projectId: Number(projectA),
    });
    expect(a.secret).toMatch(/^whsec_/);

    const memberA = await world.signUp('member-a');
    const started = Date.now();
    await world.addMember(orgA, ownerA, memberA, 'MEMBER');
    await world.until(() => receiverA.ofType('member.added').length, 1, 2000, 'member.added at A');
    expect(Date.now() - started).toBeLessThan(2000);

    const [request] = receiverA.ofType('member.added');
    expect(WebhookReceiver.verify(request, a.secret)).toEqual(request.event);
    expect(WebhookReceiver.verifies(request, b.secret)).toBe(false);
    expect(request.headers['webhook-id']).toBe(request.event.id);
    expect(request.headers['content-type']).toBe('application/json');
    // the body is the stored text as published: the envelope's fields in the documented order
    expect(Object.keys(JSON.parse(request.body) as object)).toEqual([
      'id',
      'type',
      'version',
      'timestamp',
      'organization_id',
      'project_id',
      'actor',
      'data',
    ]);
    const event = WebhookEnvelope.parse(request.event);
    expect(event).toMatchObject({
      type: 'member.added',
      version: WEBHOOK_EVENT_CATALOG['member.added'].version,
      organization_id: orgA,
      project_id: null,
      actor: { type: 'user', id: ownerA.id },
    });
    expect(WEBHOOK_EVENT_CATALOG['member.added'].data.parse(event.data)).toEqual({
      user: { id: memberA.id, email: memberA.email },
      role: 'MEMBER',
    });

    // organization B's member: B's endpoint only
    const memberB = await world.signUp('member-b');
    await world.addMember(orgB, ownerB, memberB, 'ADMIN');
    await world.until(() => receiverB.ofType('member.added').length, 1, 2000, 'member.added at B');
    expect(receiverB.ofType('member.added')[0].event.organization_id).toBe(orgB);
    expect(WebhookReceiver.verifies(receiverB.ofType('member.added')[0], b.secret)).toBe(true);

    // a project event reaches the organization endpoint and the project's own, not B
    const key = await stack.request(
      'POST',
      `/v1/api/organizations/${orgA}/projects/${projectA}/api_keys`,
      { token: ownerA.token, body: { data: { attributes: { note: 'hook' } } } },
    );
    expect(key.status).toBe(201);
    await world.until(() => receiverP.ofType('api_key.created').length, 1, 2000, 'api_key at P');
    await world.until(() => receiverA.ofType('api_key.created').length, 1, 2000, 'api_key at A');
    expect(receiverP.ofType('api_key.created')[0].event.project_id).toBe(projectA);
    expect(WebhookReceiver.verifies(receiverP.ofType('api_key.created')[0], p.secret)).toBe(true);
    // another project of A: not for P
    const otherProject = await world.newProject(ownerA, orgA, 'Other');
    await stack.request('POST', `/v1/api/organizations/${orgA}/projects/${otherProject}/api_keys`, {
      token: ownerA.token,
      body: { data: { attributes: { note: 'other' } } },
    });
    await world.until(() => receiverA.ofType('api_key.created').length, 2, 2000, 'second api_key');

    await new Promise((resolve) => setTimeout(resolve, 500)); // anything misrouted would be here
    expect(receiverB.received.map((r) => r.event.organization_id)).toEqual(
      receiverB.received.map(() => orgB),
    );
    expect(receiverA.received.every((r) => r.event.organization_id === orgA)).toBe(true);
    expect(receiverP.received.map((r) => [r.event.type, r.event.project_id])).toEqual([
      ['api_key.created', projectA],
    ]);
    // each receiver got every event once (no duplicate webhook-id)
    const ids = receiverA.received.map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('delivers the wallet’s transaction.posted once an endpoint subscribes (org tells the wallet)', async () => {
    const receiver = await WebhookReceiver.start(RECEIVER_HOST);
    try {
      const owner = await world.signUp('treasurer');
      const orgId = await world.newOrganization(owner, 'Treasury');
      const wallets = async (kind: string) =>
        (await stack.request('GET', `/v1/api/wallets?entity_type=${kind}`, { token: owner.token }))
          .body.data as { address_hash: string; entity_id: string }[] | undefined;
      const orgWallet = await waitFor(
        async () => (await wallets('organization'))?.find((w) => w.entity_id === orgId),
        {
          timeoutMs: 5000,
          what: 'the organization wallet',
        },
      );
      const userWallet = await waitFor(async () => (await wallets('user'))?.[0], {
        what: 'the user wallet',
      });
      const e = await world.endpoint(owner, orgId, {
        url: receiver.url(),
        eventTypes: ['transaction.*'],
      });
      const credited = await stack.request(
        'POST',
        `/v1/api/wallets/${orgWallet.address_hash}/credits`,
        {
          token: owner.token,
          headers: { 'admin-access': stack.env.keys.adminAccessToken },
          body: { credit: { amount: 100, description: 'seed', reference_id: `seed-${orgId}` } },
        },
      );
      expect(credited.status).toBe(201);
      await new Promise((resolve) => setTimeout(resolve, 1000)); // the subscription reaches the wallet
      const paid = await stack.request('POST', '/v1/api/wallets/transact', {
        token: owner.token,
        headers: { 'idempotency-key': `hook-${orgId}` },
        body: {
          transaction: {
            from_wallet: orgWallet.address_hash,
            to_wallet: userWallet.address_hash,
            from_asset: 'CREDITS',
            to_asset: 'CREDITS',
            amount: 7,
            description: 'hooked',
          },
        },
      });
      expect(paid.status).toBe(201);
      const transfer = await waitFor(
        () => receiver.ofType('transaction.posted').find((r) => r.event.data.kind === 'transfer'),
        { timeoutMs: 3000, what: 'transaction.posted (transfer)' },
      );
      expect(WebhookReceiver.verifies(transfer, e.secret)).toBe(true);
      expect(transfer.event.organization_id).toBe(orgId);
      expect(receiver.received.every((r) => r.event.organization_id === orgId)).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it('keeps endpoints per organization: 404 across tenants, 403 for a MEMBER, 400 for bad input', async () => {
    const a = await world.endpoint(ownerA, orgA, {
      url: receiverA.url('/x'),
      eventTypes: ['member.*'],
    });
    const base = world.endpoints(orgA);
    // the secret is not shown again
    const got = await stack.request('GET', `${base}/${a.id}`, { token: ownerA.token });
    expect(got.status).toBe(200);
    expect(got.body.meta).toBeUndefined();
    expect(JSON.stringify(got.body)).not.toContain(a.secret);
    expect(got.body.data.attributes).toMatchObject({
      url: receiverA.url('/x'),
      eventTypes: ['member.*'],
      enabled: true,
      projectId: null,
      pendingDeliveries: 0,
      failedDeliveries: 0,
    });
    // B's owner: A's organization is 404, and A's endpoint under B's organization too
    expect((await stack.request('GET', base, { token: ownerB.token })).status).toBe(404);
    expect(
      (await stack.request('GET', `${world.endpoints(orgB)}/${a.id}`, { token: ownerB.token }))
        .status,
    ).toBe(404);
    for (const [method, path] of [
      ['PATCH', `${world.endpoints(orgB)}/${a.id}`],
      ['DELETE', `${world.endpoints(orgB)}/${a.id}`],
      ['POST', `${world.endpoints(orgB)}/${a.id}/rotate_secret`],
      ['POST', `${world.endpoints(orgB)}/${a.id}/test`],
      ['GET', `${world.endpoints(orgB)}/${a.id}/deliveries`],
    ] as const) {
      const res = await stack.request(method, path, {
        token: ownerB.token,
        body: method === 'PATCH' ? { data: { attributes: { enabled: false } } } : undefined,
      });
      expect([method, path, res.status]).toEqual([method, path, 404]);
    }
    // a project of B as scope of an A endpoint: 404
    const projectB = await world.newProject(ownerB, orgB, 'Foreign');
    const foreign = await world.createEndpoint(ownerA, orgA, {
      url: receiverA.url(),
      eventTypes: ['*'],
      projectId: Number(projectB),
    });
    expect(foreign.status).toBe(404);
    // MEMBER: 403
    const member = await world.signUp('plain-member');
    await world.addMember(orgA, ownerA, member, 'MEMBER');
    const asMember = await stack.request('GET', base, { token: member.token });
    expect([asMember.status, asMember.body.errors[0].code]).toEqual([403, 'FORBIDDEN']);
    // bad input: 400, nothing created
    const before = (await stack.request('GET', base, { token: ownerA.token })).body.data.length;
    for (const attributes of [
      { url: receiverA.url(), eventTypes: ['no.such_type'] },
      { url: receiverA.url(), eventTypes: [] },
      { url: 'not a url', eventTypes: ['*'] },
      { url: 'ftp://example.com/', eventTypes: ['*'] },
      { eventTypes: ['*'] },
    ]) {
      const res = await world.createEndpoint(ownerA, orgA, attributes);
      expect([JSON.stringify(attributes), res.status]).toEqual([JSON.stringify(attributes), 400]);
      expect(res.body.errors[0].code).toBe('VALIDATION_FAILED');
    }
    expect((await stack.request('GET', base, { token: ownerA.token })).body.data.length).toBe(
      before,
    );
    // the deleted endpoint is gone
    expect((await stack.request('DELETE', `${base}/${a.id}`, { token: ownerA.token })).status).toBe(
      204,
    );
    expect((await stack.request('GET', `${base}/${a.id}`, { token: ownerA.token })).status).toBe(
      404,
    );
  });

  it('retries a failing receiver on the schedule: 500 three times then 200 → delivered on the 4th attempt, 4 attempts logged', async () => {
    const receiver = await WebhookReceiver.start(RECEIVER_HOST);
    try {
      const e = await world.endpoint(ownerA, orgA, { url: receiver.url(), eventTypes: ['ping'] });
      receiver.answerWith(
        { status: 500, body: 'boom 1' },
        { status: 500, body: 'boom 2' },
        { status: 500, body: 'boom 3' },
        { status: 200, body: 'ok' },
      );
      const ping = await world.ping(ownerA, orgA, e.id);
      expect(ping.status).toBe(202);
      expect(ping.body.data.attributes.eventType).toBe('ping');
      await world.until(() => receiver.received.length, 4, 5000, '4 attempts');
      const ids = new Set(receiver.received.map((r) => r.headers['webhook-id']));
      expect(ids.size).toBe(1);
      for (const request of receiver.received)
        expect(WebhookReceiver.verifies(request, e.secret)).toBe(true);
      const [delivery] = await world.deliveriesOnce(ownerA, orgA, e.id, 'succeeded');
      expect(delivery.attributes.attemptCount).toBe(4);
      expect(delivery.attributes.attempts.map((a: any) => a.responseStatus)).toEqual([
        500, 500, 500, 200,
      ]);
      expect(delivery.attributes.attempts[0].responseBody).toBe('boom 1');
      const gaps = receiver.received.slice(1).map((r, i) => r.at - receiver.received[i].at);
      for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(250);
      // filters of the log
      expect(await world.deliveries(ownerA, orgA, e.id, '?status=failed')).toEqual([]);
      expect(
        await world.deliveries(ownerA, orgA, e.id, '?event_type=ping&status=succeeded'),
      ).toHaveLength(1);
      const bad = await stack.request(
        'GET',
        `${world.endpoints(orgA)}/${e.id}/deliveries?status=nope`,
        {
          token: ownerA.token,
        },
      );
      expect(bad.status).toBe(400);
    } finally {
      await receiver.close();
    }
  });

  it('waits as long as a 429’s Retry-After asks before the next attempt', async () => {
    const receiver = await WebhookReceiver.start(RECEIVER_HOST);
    try {
      const e = await world.endpoint(ownerA, orgA, { url: receiver.url(), eventTypes: ['ping'] });
      receiver.answerWith({ status: 429, headers: { 'retry-after': '2' } }, { status: 204 });
      await world.ping(ownerA, orgA, e.id);
      await world.until(() => receiver.received.length, 2, 5000, 'the attempt after Retry-After');
      const gap = receiver.received[1].at - receiver.received[0].at;
      expect(gap).toBeGreaterThanOrEqual(1900); // the schedule alone would have waited 300 ms
    } finally {
      await receiver.close();
    }
  });

  it('gives up after the last attempt, keeps the delivery as failed, and resends it on request', async () => {
    const receiver = await WebhookReceiver.start(RECEIVER_HOST);
    try {
      const e = await world.endpoint(ownerA, orgA, { url: receiver.url(), eventTypes: ['ping'] });
      receiver.answerAlways(() => ({ status: 503 }));
      await world.ping(ownerA, orgA, e.id);
      const [failed] = await world.deliveriesOnce(ownerA, orgA, e.id, 'failed', 6000);
      expect(failed.attributes.attemptCount).toBe(5);
      const endpoint = await stack.request('GET', `${world.endpoints(orgA)}/${e.id}`, {
        token: ownerA.token,
      });
      expect(endpoint.body.data.attributes.failedDeliveries).toBe(1);
      expect(endpoint.body.data.attributes.failingSince).not.toBeNull();
      receiver.answerAlways(() => ({ status: 204 }));
      const resend = await stack.request(
        'POST',
        `${world.endpoints(orgA)}/${e.id}/deliveries/${failed.id}/resend`,
        { token: ownerA.token },
      );
      expect(resend.status).toBe(202);
      const [done] = await world.deliveriesOnce(ownerA, orgA, e.id, 'succeeded');
      expect(done.id).toBe(failed.id);
      const healed = await stack.request('GET', `${world.endpoints(orgA)}/${e.id}`, {
        token: ownerA.token,
      });
      expect(healed.body.data.attributes.failingSince).toBeNull();
    } finally {
      await receiver.close();
    }
  });

  it('disables an endpoint that answers 410 Gone at once', async () => {
    const receiver = await WebhookReceiver.start(RECEIVER_HOST);
    try {
      const e = await world.endpoint(ownerA, orgA, { url: receiver.url(), eventTypes: ['ping'] });
      receiver.answerAlways(() => ({ status: 410 }));
      await world.ping(ownerA, orgA, e.id);
      await world.deliveriesOnce(ownerA, orgA, e.id, 'failed');
      const endpoint = await stack.request('GET', `${world.endpoints(orgA)}/${e.id}`, {
        token: ownerA.token,
      });
      expect(endpoint.body.data.attributes).toMatchObject({
        enabled: false,
        disabledReason: 'gone',
      });
      expect(receiver.received).toHaveLength(1);
      const again = await world.ping(ownerA, orgA, e.id);
      expect([again.status, again.body.errors[0].code]).toEqual([422, 'WEBHOOK_ENDPOINT_DISABLED']);
    } finally {
      await receiver.close();
    }
  });

  it('signs with both secrets during a rotation’s overlap, then with the new one only', async () => {
    const receiver = await WebhookReceiver.start(RECEIVER_HOST);
    try {
      const e = await world.endpoint(ownerA, orgA, { url: receiver.url(), eventTypes: ['ping'] });
      const rotated = await stack.request(
        'POST',
        `${world.endpoints(orgA)}/${e.id}/rotate_secret`,
        {
          token: ownerA.token,
        },
      );
      expect(rotated.status).toBe(200);
      const fresh = rotated.body.meta.secret as string;
      expect(fresh).not.toBe(e.secret);
      expect(rotated.body.data.attributes.previousSecretExpiresAt).not.toBeNull();
      await world.ping(ownerA, orgA, e.id);
      await world.until(() => receiver.received.length, 1);
      const during = receiver.received[0];
      expect(WebhookReceiver.verifies(during, fresh)).toBe(true);
      expect(WebhookReceiver.verifies(during, e.secret)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 3200)); // WEBHOOK_SECRET_OVERLAP_SECONDS=3
      await world.ping(ownerA, orgA, e.id);
      await world.until(() => receiver.received.length, 2);
      const after = receiver.received[1];
      expect(WebhookReceiver.verifies(after, fresh)).toBe(true);
      expect(WebhookReceiver.verifies(after, e.secret)).toBe(false);
    } finally {
      await receiver.close();
    }
  });
});
