import { randomUUID } from 'node:crypto';
import { connect, JSONCodec } from 'nats';
import { publishEvent } from '@wp/event-testing';
import { TEST_SERVERS, waitFor } from '@wp/testing';
import { sentinelPassHelpers, useSentinelPassWorld } from '../support/sentinel-passes.js';

/**
 * docs/api.md § Sentinel Pass (unified asset format) (`usageCount`, `lastUsedAt`) and
 * docs/architecture.md § Data ownership and events (`*.activity.recorded`): usage counted from
 * activity batches published on the event transport, duplicates skipped, no credential event.
 * The organization, its members and projects: apps/org/test/support/sentinel-passes.ts.
 */
describe('Sentinel Passes', () => {
  const world = useSentinelPassWorld();

  /** Publishes an envelope on JetStream again under a new message id. */
  const republishPastDeduplication = async (envelope: { subject: string }) => {
    const nc = await connect({ servers: TEST_SERVERS.nats });
    try {
      await nc
        .jetstream()
        .publish(`${world.ctx.namespace}.${envelope.subject}`, JSONCodec().encode(envelope), {
          msgID: randomUUID(),
        });
    } finally {
      await nc.close();
    }
  };

  const { create, passEvents } = sentinelPassHelpers(world);

  describe('usage from activity events', () => {
    it('counts each api_request entry of a published activity batch once (idempotent), ignoring other types and unknown passes', async () => {
      const { pass } = await create({ title: 'Busy agent' });
      const { pass: idle } = await create({ title: 'Idle agent' });
      const entry = (
        activityType: 'api_request' | 'error' | 'token_generation',
        agentUserId: string,
        occurredAt: string,
      ) => ({
        id: randomUUID(),
        agentUserId,
        activityType,
        service: 'org',
        endpoint: '/v1/api/organizations/:organizationId/projects/:projectId',
        method: 'GET',
        statusCode: activityType === 'error' ? 403 : 200,
        latencyMs: 1.5,
        success: activityType !== 'error',
        clientAddress: '127.0.0.1',
        occurredAt,
      });
      const t1 = '2026-01-01T10:00:00.000Z';
      const t2 = '2026-01-01T11:00:00.000Z';
      const batch = {
        id: randomUUID(),
        subject: 'org.activity.recorded' as const,
        occurredAt: new Date().toISOString(),
        payload: {
          entries: [
            entry('api_request', pass.id, t2),
            entry('api_request', pass.id, t1),
            entry('api_request', pass.id, t1),
            entry('error', pass.id, t2),
            entry('token_generation', pass.id, t2),
            entry('api_request', randomUUID(), t2),
          ],
        },
      };
      const walletBatch = {
        id: randomUUID(),
        subject: 'wallet.activity.recorded' as const,
        occurredAt: new Date().toISOString(),
        payload: { entries: [{ ...entry('api_request', pass.id, t1), service: 'wallet' }] },
      };
      const app = world.ctx.org;
      await publishEvent(app, 'org.activity.recorded', batch.payload, batch);
      // The same event again: in services mode under another message id (past JetStream's
      // de-duplication), so that the processed-event record must skip it; pg-boss (embedded
      // mode) drops a second publication of an event id itself.
      if (world.ctx.env.mode === 'services') await republishPastDeduplication(batch);
      else await publishEvent(app, 'org.activity.recorded', batch.payload, batch);
      await publishEvent(app, 'wallet.activity.recorded', walletBatch.payload, walletBatch);
      await waitFor(
        async () => {
          const rows = await world.ctx.db.query(
            `SELECT count(*)::int AS n FROM processed_event WHERE event_id = ANY($1::uuid[])`,
            [[batch.id, walletBatch.id]],
          );
          return rows[0].n === 2;
        },
        { what: 'activity batches consumed' },
      );
      // a moment for a (wrong) second application of the duplicate to land
      await new Promise((r) => setTimeout(r, 300));
      const res = await world.ctx.request('GET', `${world.S}/${pass.id}`, {
        token: world.viewer.token,
      });
      expect(res.body.data.attributes.metadata).toMatchObject({ usageCount: 4, lastUsedAt: t2 });
      const quiet = await world.ctx.request('GET', `${world.S}/${idle.id}`, {
        token: world.viewer.token,
      });
      expect(quiet.body.data.attributes.metadata).toMatchObject({
        usageCount: 0,
        lastUsedAt: null,
      });
      // usage is not a credential change: no event, no version
      expect((await passEvents(pass.id)).map((e) => e.version)).toEqual([1]);
    });
  });
});
