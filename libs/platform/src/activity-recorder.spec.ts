import type { HttpAdapterHost } from '@nestjs/core';
import type { Outbox } from '@wp/messaging';
import type { TxHost } from '@wp/persistence';
import type { DataSource } from 'typeorm';
import { ActivityRecorder, type ActivityOptions } from './activity-recorder.js';

const entry = {
  agentUserId: '9b2f6c1e-6f0e-4a53-9a31-4c1a6f0d2b11',
  activityType: 'api_request' as const,
  endpoint: '/v1/api/x',
  method: 'GET',
  statusCode: 200,
  latencyMs: 1,
  success: true,
  clientAddress: null,
};

function recorder(options: Partial<ActivityOptions>, failTransactions = 0) {
  const batches: unknown[][] = [];
  let failures = failTransactions;
  const outbox = {
    enqueue: (_s: string, payload: { entries: unknown[] }) => {
      batches.push(payload.entries);
      return Promise.resolve('id');
    },
  } as unknown as Outbox;
  const dataSource = { isInitialized: true } as unknown as DataSource;
  const txHost = {
    withTransaction: async (_propagation: unknown, work: () => Promise<void>) => {
      if (failures > 0) {
        failures--;
        throw new Error('database down');
      }
      await work();
    },
  } as unknown as TxHost;
  const r = new ActivityRecorder(
    { service: 'org', ...options },
    {} as HttpAdapterHost,
    dataSource,
    outbox,
    txHost,
  );
  return { r, batches };
}

describe('ActivityRecorder (buffer and flush of agent activity)', () => {
  it('flushes buffered entries to the outbox in batches of batchSize, with id, service and time', async () => {
    const { r, batches } = recorder({ batchSize: 2 });
    for (let i = 0; i < 5; i++) r.record(entry);
    await r.flush();
    expect(batches.map((b) => b.length)).toEqual([2, 2, 1]);
    expect(batches[0][0]).toMatchObject({ ...entry, service: 'org', id: expect.any(String) });
    await r.flush();
    expect(batches).toHaveLength(3); // nothing flushed twice
  });

  it('drops new entries once maxBuffered are waiting', async () => {
    const { r, batches } = recorder({ maxBuffered: 3 });
    for (let i = 0; i < 10; i++) r.record(entry);
    await r.flush();
    expect(batches.flat()).toHaveLength(3);
  });

  it('keeps entries when a flush fails and writes them at the next one', async () => {
    const { r, batches } = recorder({}, 1);
    r.record(entry);
    await r.flush();
    expect(batches).toHaveLength(0);
    await r.flush();
    expect(batches.flat()).toHaveLength(1);
  });

  it('records nothing for a service without an activity subject', async () => {
    const { r, batches } = recorder({ service: 'analytics' });
    expect(r.enabled).toBe(false);
    r.record(entry);
    await r.flush();
    expect(batches).toHaveLength(0);
  });
});
