import { Global, Injectable, Module, type DynamicModule, type OnModuleInit } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { HealthModule, METRICS_REGISTRY } from '@wp/observability';
import { Registry } from 'prom-client';
import {
  createDataSource,
  DatabaseModule,
  dropDatabase,
  ensureDatabase,
  PlatformDatabaseModule,
  platformDataSource,
  runMigrations,
  schemaDrift,
  TxHost,
} from '@wp/persistence';
import {
  describeWithServers,
  TEST_SERVERS,
  TestEnvironment,
  waitFor,
  type OptionalServer,
} from '@wp/testing';
import { DataSource } from 'typeorm';
import type { EventEnvelope } from '@wp/contracts';
import type { NatsConnection } from 'nats';
import {
  connectNats,
  ConsumerMetrics,
  EventBus,
  EventTransport,
  JetStreamTransport,
  Namespacer,
  installEventQueues,
  MESSAGING_ENTITIES,
  MessagingModule,
  NatsTransportModule,
  Outbox,
  OutboxRelay,
  outboxDraftInsert,
  outboxDraftValues,
  PostgresTransportModule,
  RpcClient,
  RpcServer,
} from '../src/index.js';

/** What the test consumer saw. */
const seen: { id: string; name: string }[] = [];
let failuresLeft = 0;

@Injectable()
class TestConsumer implements OnModuleInit {
  constructor(
    private readonly bus: EventBus,
    private readonly rpc: RpcServer,
  ) {}
  onModuleInit(): void {
    this.rpc.handle('auth.rpc.users.find_by_email', () => Promise.resolve({ user: null }));
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

/** The transports of one mode, and what they need prepared. */
interface Mode {
  name: string;
  /** Servers beyond PostgreSQL (the run skips the mode, with its name, without them). */
  needs?: OptionalServer[];
  prepare: () => Promise<void>;
  /** Modules providing the transports (and what they stand on). */
  modules: () => DynamicModule[];
  transports: () => DynamicModule;
  cleanup: () => Promise<void>;
}

const env = new TestEnvironment({}, 'services');
const platformUrl = `${TEST_SERVERS.postgres}/wp_platform_${env.id}`;
const MODES: Mode[] = [
  {
    name: 'services mode: NATS JetStream',
    needs: ['nats'],
    prepare: () => Promise.resolve(),
    modules: () => [],
    transports: () => NatsTransportModule.forRoot({ url: TEST_SERVERS.nats, service: 'test' }),
    cleanup: () => env.cleanup(), // the namespaced streams
  },
  {
    name: 'embedded mode: pg-boss in the platform database',
    prepare: async () => {
      await ensureDatabase(platformUrl);
      await runMigrations(platformDataSource(platformUrl));
      await installEventQueues(platformUrl);
    },
    modules: () => [PlatformDatabaseModule.forRoot({ url: platformUrl, service: 'test' })],
    transports: () => PostgresTransportModule.forRoot({ url: platformUrl, service: 'test' }),
    cleanup: () => dropDatabase(platformUrl),
  },
];

/**
 * The messaging library against real PostgreSQL and the transports of both modes: outbox rows
 * are published after commit; consumers see each event once even when it is published twice,
 * and a failing handler is retried until it succeeds; request/reply reaches the one responder
 * and a missing responder is a 503.
 */
function transportSuite(mode: Mode): void {
  const id = env.id;
  const url = `${TEST_SERVERS.postgres}/wp_messaging_${id}_${MODES.indexOf(mode)}`;
  let app: INestApplicationContext;

  beforeAll(async () => {
    seen.length = 0;
    await mode.prepare();
    await ensureDatabase(url);
    // This library has no migrations of its own: build its two tables from the entities.
    const schema = createDataSource({ url, entities: MESSAGING_ENTITIES, migrations: [] });
    await schema.initialize();
    for (const sql of await schemaDrift(schema)) await schema.query(sql);
    await schema.destroy();
    @Global()
    @Module({
      providers: [{ provide: METRICS_REGISTRY, useValue: new Registry() }],
      exports: [METRICS_REGISTRY],
    })
    class TestMetricsModule {}
    @Module({
      imports: [
        TestMetricsModule,
        HealthModule.forRoot(),
        DatabaseModule.forRoot({ url, entities: MESSAGING_ENTITIES, migrations: [] }),
        ...mode.modules(),
        MessagingModule.forRoot({ namespace: id, service: 'test', transports: mode.transports() }),
      ],
      providers: [TestConsumer],
    })
    class TestModule {}
    app = await NestFactory.createApplicationContext(TestModule, { logger: false });
  });

  afterAll(async () => {
    await app?.close();
    await dropDatabase(url);
    await mode.cleanup();
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
    const eventId = await app
      .get(TxHost)
      .withTransaction(() => outbox.enqueue('org.organization.created', payload('committed')));
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
    const outbox = app.get(Outbox);
    await expect(
      app.get(TxHost).withTransaction(async () => {
        await outbox.enqueue('org.organization.created', payload('rolled back'));
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    await app.get(OutboxRelay).flush();
    await new Promise((r) => setTimeout(r, 300));
    expect(seen.some((s) => s.name === 'rolled back')).toBe(false);
  });

  it('leaves an event pending when its publication fails, and publishes it on the next drain', async () => {
    const dataSource = app.get(DataSource);
    const relay = app.get(OutboxRelay);
    const transport = app.get(EventTransport);
    await relay.flush();
    const failing = jest
      .spyOn(transport, 'publish')
      .mockRejectedValue(new Error('bus unavailable'));
    let eventId: string;
    try {
      eventId = await app
        .get(TxHost)
        .withTransaction(() =>
          app.get(Outbox).enqueue('org.organization.created', payload('retried')),
        );
      await relay.flush();
      expect(failing).toHaveBeenCalled();
      const [pending] = await dataSource.query(
        `SELECT published_at FROM outbox_message WHERE id = $1`,
        [eventId],
      );
      expect(pending.published_at).toBeNull(); // the claim's stamp rolled back
    } finally {
      failing.mockRestore();
    }
    await relay.flush();
    await waitFor(() => seen.some((s) => s.id === eventId), {
      timeoutMs: 10_000,
      what: 'delivery',
    });
    const [row] = await dataSource.query(`SELECT published_at FROM outbox_message WHERE id = $1`, [
      eventId,
    ]);
    expect(row.published_at).not.toBeNull();
  });

  it('publishes a drafted event its writer inserted in its own statement', async () => {
    const outbox = app.get(Outbox);
    const draft = outbox.draft('org.organization.created', payload('drafted'));
    await app
      .get(DataSource)
      .query(`WITH event AS (${outboxDraftInsert(1)}) SELECT 1`, outboxDraftValues(draft));
    outbox.written();
    await waitFor(() => seen.some((s) => s.id === draft.id && s.name === 'drafted'), {
      timeoutMs: 10_000,
      what: 'delivery',
    });
    // typed right, but no uuid and no date: the catalog's schema refuses it at run time
    const broken = { organizationId: 1, name: 'x', createdBy: 'nobody', createdAt: 'today' };
    expect(() => outbox.draft('org.organization.created', broken)).toThrow();
  });

  it('hands a duplicate publication of the same event to the handler once', async () => {
    const transport = app.get(EventTransport);
    const envelope: EventEnvelope = {
      id: `6f1e3c1a-0000-4000-8000-00000000d00${MODES.indexOf(mode)}`,
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
    const eventId = await app
      .get(TxHost)
      .withTransaction(() => app.get(Outbox).enqueue('org.organization.created', payload('flaky')));
    await waitFor(() => seen.some((s) => s.id === eventId), {
      timeoutMs: 20_000, // pg-boss retries after 1-2 s, then 2-4 s (whole seconds, back-off)
      what: 'retried delivery',
    });
    expect(failuresLeft).toBe(0);
    expect(seen.filter((s) => s.id === eventId)).toHaveLength(1);
  });

  it('refuses to enqueue a payload that breaks the contract', async () => {
    await expect(
      app
        .get(TxHost)
        .withTransaction(() =>
          app.get(Outbox).enqueue('org.organization.created', { name: 'no id' } as never),
        ),
    ).rejects.toThrow();
  });

  it('answers a request through the one responder, and a missing responder is a 503', async () => {
    const rpc = app.get(RpcClient);
    await expect(
      rpc.request('auth.rpc.users.find_by_email', { email: 'nobody@example.com' }),
    ).resolves.toEqual({ user: null });
    await expect(
      rpc.request('auth.rpc.users.find_by_ids', { userIds: [] }, 300),
    ).rejects.toMatchObject({ status: 503, code: 'UPSTREAM_UNAVAILABLE' });
  });
}

for (const mode of MODES) {
  const run = mode.needs ? describeWithServers(mode.needs, mode.name) : describe;
  run(`outbox → ${mode.name} → idempotent consumer`, () => transportSuite(mode));
}

describeWithServers(['nats'], 'JetStream stream replicas')(
  'JetStream stream replicas (NATS_STREAM_REPLICAS)',
  () => {
    const namespace = `r${Date.now().toString(36)}`;
    let nc: NatsConnection;

    beforeAll(async () => {
      nc = await connectNats(TEST_SERVERS.nats, 'replicas-test');
    });
    afterAll(async () => {
      const jsm = await nc.jetstreamManager();
      await jsm.streams.delete(`${namespace}_ORG`).catch(() => undefined);
      await nc.close();
    });

    const transport = (streamReplicas: number) =>
      new JetStreamTransport(
        nc,
        new Namespacer({ namespace, service: 'test' }),
        new ConsumerMetrics(new Registry()),
        { streamReplicas },
      );

    it('creates streams with the configured replica count', async () => {
      // A single server refuses more than one replica: the setting reaches JetStream.
      await expect(transport(3).ensureStream('ORG')).rejects.toThrow(/replica/i);
      await transport(1).ensureStream('ORG');
      const info = await (await nc.jetstreamManager()).streams.info(`${namespace}_ORG`);
      expect(info.config.num_replicas).toBe(1);
    });
  },
);
