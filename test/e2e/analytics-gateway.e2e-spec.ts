import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { LangfuseClient } from '@langfuse/client';
import { UnauthorizedError } from '@langfuse/core';
import { EVENT_CATALOG } from '@wp/contracts';
import { EventTransport } from '@wp/messaging';
import { waitFor } from '@wp/testing';
import { ProjectKeyCache } from '../../apps/analytics/src/modules/projects/project-key-cache.js';
import { PlatformStack } from '../support/stack.js';

/**
 * The analytics feature through the gateway (docs/architecture.md § Shape: `/api/public/*` →
 * analytics, no `/v1/api` prefix): a Langfuse client, which never sends `Api-Key`, ingests and
 * reads a trace at the public origin with the project key pair (docs/api.md § Authentication 7).
 * The key pair arrives as the org service will announce it: `org.project.created` and
 * `org.project.keys.changed`.
 */
describe('analytics through the gateway', () => {
  let stack: PlatformStack;
  const projectId = 4242;
  const keys = {
    publicKey: `pk-lf-${randomBytes(12).toString('hex')}`,
    secretKey: `sk-lf-${randomBytes(24).toString('hex')}`,
  };

  beforeAll(async () => {
    stack = await PlatformStack.start();
    const analytics = stack.apps.get('analytics')!;
    const transport = analytics.get(EventTransport);
    await transport.publish({
      id: randomUUID(),
      subject: 'org.project.created',
      occurredAt: new Date().toISOString(),
      payload: EVENT_CATALOG['org.project.created'].parse({
        organizationId: 1,
        projectId,
        name: 'Gateway project',
        isDefault: true,
        createdBy: randomUUID(),
        createdAt: new Date().toISOString(),
      }),
    });
    await transport.publish({
      id: randomUUID(),
      subject: 'org.project.keys.changed',
      occurredAt: new Date().toISOString(),
      payload: EVENT_CATALOG['org.project.keys.changed'].parse({
        organizationId: 1,
        projectId,
        version: 1,
        keys: [
          {
            id: 'k1',
            publicKey: keys.publicKey,
            secretKeySha256: createHash('sha256').update(keys.secretKey).digest('hex'),
            expiresAt: null,
          },
        ],
      }),
    });
    const cache = analytics.get(ProjectKeyCache);
    await waitFor(() => cache.verify(keys.publicKey, keys.secretKey) === projectId, {
      what: 'the project key pair',
    });
  });
  afterAll(() => stack.close());

  it('routes /api/public to analytics without an Api-Key: ingest, then list and get the trace', async () => {
    const client = new LangfuseClient({ ...keys, baseUrl: stack.gatewayUrl });
    const traceId = randomUUID();
    const res = await client.api.ingestion.batch({
      batch: [
        {
          id: randomUUID(),
          timestamp: new Date().toISOString(),
          type: 'trace-create',
          body: { id: traceId, name: 'via-gateway', userId: 'gw-user' },
        },
      ],
    });
    expect(res.errors).toEqual([]);
    const listed = await client.api.trace.list({ userId: 'gw-user' });
    expect(listed.data.map((t) => t.id)).toEqual([traceId]);
    expect((await client.api.trace.get(traceId)).htmlPath).toBe(
      `/project/${projectId}/traces/${traceId}`,
    );
  });

  it("passes analytics' own 401 through the gateway", async () => {
    const client = new LangfuseClient({
      publicKey: keys.publicKey,
      secretKey: 'sk-lf-wrong',
      baseUrl: stack.gatewayUrl,
    });
    await expect(client.api.trace.list()).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('still refuses an invalid Api-Key at the gateway when one is sent', async () => {
    const res = await stack.request('GET', '/api/public/traces', {
      headers: {
        'api-key': 'wpk_not_registered',
        authorization: `Basic ${Buffer.from(`${keys.publicKey}:${keys.secretKey}`).toString('base64')}`,
      },
    });
    expect(res.status).toBe(403);
  });
});
