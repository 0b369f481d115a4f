import { Injectable, Module, type OnModuleInit } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { HealthModule } from '@wp/observability';
import {
  createDataSource,
  DatabaseModule,
  dropDatabase,
  ensureDatabase,
  schemaDrift,
} from '@wp/persistence';
import { TEST_SERVERS, TestEnvironment, waitFor } from '@wp/testing';
import { DataSource } from 'typeorm';
import type { EventEnvelope } from '@wp/contracts';
import {
  EventBus,
  EventTransport,
  MESSAGING_ENTITIES,
  MessagingModule,
  Outbox,
  OutboxRelay,
} from '../src/index.js';

/** What the test consumer saw. */
const seen: { id: string; name: string }[] = [];
let failuresLeft = 0;

@Injectable()
class TestConsumer implements OnModuleInit {
  constructor(private readonly bus: EventBus) {}
  onModuleInit(): void {
    this.bus.on('org.organization.created', 'test_consumer', async (event) => {
      if (failuresLeft > 0) {
        failuresLeft--;
        throw new Error('transient failure');
      }
      seen.push({ id: event.id, name: event.payload.name });
      await Promise.resolve();
    });
  }
}

/**
 * The messaging library against real PostgreSQL and NATS JetStream: outbox rows become stream
 * messages after commit; consumers see each event once even when it is published twice, and a
 * failing handler is retried until it succeeds.
 */
describe('outbox → JetStream → idempotent consumer', () => {
  const env = new TestEnvironment();
  const id = env.id;
  const url = `${TEST_SERVERS.postgres}/wp_messaging_${id}`;
  let app: INestApplicationContext;

  beforeAll(async () => {
    await ensureDatabase(url);
    // This library has no migrations of its own: build its two tables from the entities.
    const schema = createDataSource({ url, entities: MESSAGING_ENTITIES, migrations: [] });
    await schema.initialize();
    for (const sql of await schemaDrift(schema)) await schema.query(sql);
    await schema.destroy();
    @Module({
      imports: [
        HealthModule.forRoot(),
        DatabaseModule.forRoot({ url, entities: MESSAGING_ENTITIES, migrations: [] }),
        MessagingModule.forRoot({ url: TEST_SERVERS.nats, namespace: id, service: 'test' }),
      ],
      providers: [TestConsumer],
    })
    class TestModule {}
    app = await NestFactory.createApplicationContext(TestModule, { logger: false });
  });

  afterAll(async () => {
    await app?.close();
    await dropDatabase(url);
    await env.cleanup(); // the namespaced streams
  });

  const payload = (name: string) => ({
    organizationId: 1,
    name,
    createdBy: '00000000-0000-4000-8000-000000000001',
    createdAt: new Date().toISOString(),
  });

  it('publishes an event written in a committed transaction and delivers it once', async () => {
    const dataSource = app.get(DataSource);
    const outbox = app.get(Outbox);
    const eventId = await dataSource.transaction((m) =>
      outbox.enqueue(m, 'org.organization.created', payload('committed')),
    );
    await waitFor(() => seen.some((s) => s.id === eventId), {
      timeoutMs: 10_000,
      what: 'delivery',
    });
    const [row] = await dataSource.query(`SELECT published_at FROM outbox_message WHERE id = $1`, [
      eventId,
    ]);
    expect(row.published_at).not.toBeNull();
  });

  it('never publishes an event whose transaction rolled back', async () => {
    const dataSource = app.get(DataSource);
    const outbox = app.get(Outbox);
    await expect(
      dataSource.transaction(async (m) => {
        await outbox.enqueue(m, 'org.organization.created', payload('rolled back'));
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    await app.get(OutboxRelay).flush();
    await new Promise((r) => setTimeout(r, 300));
    expect(seen.some((s) => s.name === 'rolled back')).toBe(false);
  });

  it('hands a duplicate publication of the same event to the handler once', async () => {
    const transport = app.get(EventTransport);
    const envelope: EventEnvelope = {
      id: '6f1e3c1a-0000-4000-8000-00000000d00b',
      subject: 'org.organization.created',
      occurredAt: new Date().toISOString(),
      payload: payload('duplicate'),
    };
    await transport.publish(envelope);
    await transport.publish(envelope);
    await waitFor(() => seen.some((s) => s.name === 'duplicate'), {
      timeoutMs: 10_000,
      what: 'delivery',
    });
    await new Promise((r) => setTimeout(r, 500));
    expect(seen.filter((s) => s.name === 'duplicate')).toHaveLength(1);
  });

  it('retries a failing handler until it succeeds, recording the event once', async () => {
    failuresLeft = 2;
    const dataSource = app.get(DataSource);
    const eventId = await dataSource.transaction((m) =>
      app.get(Outbox).enqueue(m, 'org.organization.created', payload('flaky')),
    );
    await waitFor(() => seen.some((s) => s.id === eventId), {
      timeoutMs: 10_000,
      what: 'retried delivery',
    });
    expect(failuresLeft).toBe(0);
    expect(seen.filter((s) => s.id === eventId)).toHaveLength(1);
  });

  it('refuses to enqueue a payload that breaks the contract', async () => {
    const dataSource = app.get(DataSource);
    await expect(
      dataSource.transaction((m) =>
        app.get(Outbox).enqueue(m, 'org.organization.created', { name: 'no id' } as never),
      ),
    ).rejects.toThrow();
  });
});
