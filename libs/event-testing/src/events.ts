import { randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { streamOf, type EventEnvelope, type EventPayload, type EventSubject } from '@wp/contracts';
import { EventTransport, PG_BOSS_SCHEMA } from '@wp/messaging';
import { connect, JSONCodec } from 'nats';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import type { TestEnvironment } from '@wp/testing';

/**
 * Events in tests of one service, the same in both modes (docs/architecture.md § Two modes):
 * what another service would publish goes out through the service's own `EventTransport` (the
 * code path of every outbox relay: JetStream in services mode, pg-boss in embedded mode); the
 * durable consumers and the published events are read from the transport of the environment.
 */

/**
 * Publishes `payload` on `subject` in `app`'s namespace as a producing service's outbox relay
 * does (the envelope's id de-duplicates). `occurredAt` (ISO 8601) defaults to now.
 * @returns the envelope
 */
export async function publishEvent<S extends EventSubject>(
  app: INestApplicationContext,
  subject: S,
  payload: EventPayload<S>,
  options: { id?: string; occurredAt?: string } = {},
): Promise<EventEnvelope<S>> {
  const envelope: EventEnvelope<S> = {
    id: options.id ?? randomUUID(),
    subject,
    occurredAt: options.occurredAt ?? new Date().toISOString(),
    payload,
  };
  await app.get(EventTransport, { strict: false }).publish(envelope);
  return envelope;
}

/**
 * How many durable consumers of the environment's services are subscribed to `subject`: the
 * JetStream consumers filtering it (services mode), or the pg-boss queues subscribed to it
 * (embedded mode).
 */
export async function durableConsumerCount(
  env: TestEnvironment,
  subject: EventSubject,
): Promise<number> {
  const namespaced = `${env.id}.${subject}`;
  if (env.mode === 'embedded') {
    const rows = await platformQuery<{ n: number }>(
      env,
      `SELECT count(*)::int AS n FROM ${PG_BOSS_SCHEMA}.subscription WHERE event = $1`,
      [namespaced],
    );
    return rows[0].n;
  }
  const nc = await connect({ servers: env.env['NATS_URL'] });
  try {
    const jsm = await nc.jetstreamManager();
    let n = 0;
    for await (const info of jsm.consumers.list(`${env.id}_${streamOf(subject)}`)) {
      if (info.config.filter_subject === namespaced) n++;
    }
    return n;
  } finally {
    await nc.close();
  }
}

/**
 * The events published on `subject` so far, oldest first: in services mode the messages of the
 * namespaced JetStream stream; in embedded mode the producer's outbox rows its relay has
 * published (`published_at` set; `producer` is its database), since pg-boss keeps an event only
 * in the queues of subscribers, and a test of one service has none.
 */
export async function publishedEvents<S extends EventSubject>(
  env: TestEnvironment,
  producer: DataSource,
  subject: S,
): Promise<EventEnvelope<S>[]> {
  if (env.mode === 'embedded') {
    const rows: { id: string; occurred_at: Date; payload: EventPayload<S> }[] =
      await producer.query(
        `SELECT id, occurred_at, payload FROM outbox_message
         WHERE subject = $1 AND published_at IS NOT NULL ORDER BY seq`,
        [subject],
      );
    return rows.map((r) => ({
      id: r.id,
      subject,
      occurredAt: new Date(r.occurred_at).toISOString(),
      payload: r.payload,
    }));
  }
  const nc = await connect({ servers: env.env['NATS_URL'] });
  const codec = JSONCodec<EventEnvelope<S>>();
  const stream = `${env.id}_${streamOf(subject)}`;
  try {
    const jsm = await nc.jetstreamManager();
    const info = await jsm.streams.info(stream);
    const events: EventEnvelope<S>[] = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
      const msg = await jsm.streams.getMessage(stream, { seq }).catch(() => null);
      if (msg?.subject === `${env.id}.${subject}`) events.push(codec.decode(msg.data));
    }
    return events;
  } finally {
    await nc.close();
  }
}

async function platformQuery<T>(
  env: TestEnvironment,
  sql: string,
  params: unknown[],
): Promise<T[]> {
  const client = new Client({ connectionString: env.env['PLATFORM_DATABASE_URL'] });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}
