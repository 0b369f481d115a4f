import { connect, type NatsConnection, type StreamInfo } from 'nats';
import { DataSource } from 'typeorm';
import type { PlatformStack, ServiceName } from '../../support/stack.js';

const SERVICES: ServiceName[] = ['auth', 'org', 'wallet', 'analytics'];

/** A query on one service's database, through that running app's DataSource. */
export function query<T = any>(
  stack: PlatformStack,
  service: ServiceName,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const app = stack.apps.get(service);
  if (!app) throw new Error(`${service} is not running`);
  return app.get(DataSource).query(sql, params);
}

/**
 * Outbox rows of every service: in all, and still unpublished (`published_at IS NULL`;
 * docs/architecture.md § Data ownership and events).
 */
export async function outboxes(
  stack: PlatformStack,
): Promise<Record<ServiceName, { total: number; unpublished: number }>> {
  const result = {} as Record<ServiceName, { total: number; unpublished: number }>;
  for (const service of SERVICES) {
    const [row] = await query<{ total: number; unpublished: number }>(
      stack,
      service,
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE published_at IS NULL)::int AS unpublished
         FROM outbox_message`,
    );
    result[service] = row;
  }
  return result;
}

/**
 * Outbox rows of all services per JetStream stream their subject goes to (`ORG` for
 * `org.organization.created`, namespace prefix or not): what each stream must hold, exactly.
 */
export async function outboxRowsPerStream(stack: PlatformStack): Promise<Record<string, number>> {
  const namespace = `${stack.env.id}.`;
  const perStream: Record<string, number> = {};
  for (const service of SERVICES) {
    const rows = await query<{ subject: string; n: number }>(
      stack,
      service,
      `SELECT subject, count(*)::int AS n FROM outbox_message GROUP BY subject`,
    );
    for (const { subject, n } of rows) {
      const bare = subject.startsWith(namespace) ? subject.slice(namespace.length) : subject;
      const stream = bare.slice(0, bare.indexOf('.')).toUpperCase();
      perStream[stream] = (perStream[stream] ?? 0) + n;
    }
  }
  return perStream;
}

/**
 * How long the outbox rows of one service that occurred in `[from, to)` (epoch ms) waited to be
 * published: `published_at - occurred_at`, ms — the relay's part of an event's latency.
 */
export async function publishDelays(
  stack: PlatformStack,
  service: ServiceName,
  from: number,
  to: number,
): Promise<{ rows: number; medianMs: number; maxMs: number }> {
  const [row] = await query<{ rows: number; median: number | null; max: number | null }>(
    stack,
    service,
    `SELECT count(*)::int AS rows,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM published_at - occurred_at))
              * 1000 AS median,
            max(extract(epoch FROM published_at - occurred_at)) * 1000 AS max
       FROM outbox_message
      WHERE occurred_at >= to_timestamp($1 / 1000.0) AND occurred_at < to_timestamp($2 / 1000.0)`,
    [from, to],
  );
  return {
    rows: row.rows,
    medianMs: Math.round(Number(row.median ?? 0)),
    maxMs: Math.round(Number(row.max ?? 0)),
  };
}

/**
 * Wallets per organization among `organizationIds`: how many organization wallets the wallet
 * service opened for each (exactly one expected: none is an event lost, two a duplicate).
 */
export async function walletsPerOrganization(
  stack: PlatformStack,
  organizationIds: string[],
): Promise<Map<string, number>> {
  const rows = await query<{ entity_id: string; n: number }>(
    stack,
    'wallet',
    `SELECT entity_id, count(*)::int AS n FROM wallet
      WHERE entity_type = 'organization' AND entity_id = ANY($1) GROUP BY entity_id`,
    [organizationIds],
  );
  const counts = new Map(organizationIds.map((id) => [id, 0]));
  for (const row of rows) counts.set(row.entity_id, row.n);
  return counts;
}

/** `available` credits of a wallet (the ledger's balance row), a number. */
export async function credits(stack: PlatformStack, address: string): Promise<number> {
  const [row] = await query<{ available: string }>(
    stack,
    'wallet',
    `SELECT available FROM balance WHERE wallet_address = $1 AND asset = 'CREDITS'`,
    [address],
  );
  return Number(row?.available ?? 0);
}

/** A NATS connection of the test's own to the cluster (`url`: the nodes, comma separated). */
export function natsClient(url: string): Promise<NatsConnection> {
  return connect({
    servers: url.split(','),
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    name: 'topology-test',
  });
}

/** Info of every stream of the stack's events namespace (`<EVENTS_NAMESPACE>_*`). */
export async function namespaceStreams(
  nc: NatsConnection,
  namespace: string,
): Promise<StreamInfo[]> {
  const jsm = await nc.jetstreamManager();
  const infos: StreamInfo[] = [];
  for await (const info of jsm.streams.list()) {
    if (info.config.name.startsWith(`${namespace}_`)) infos.push(info);
  }
  return infos;
}

/**
 * Whether every stream of the namespace has a leader and all its other replicas current (none
 * offline, none lagging): the cluster has caught up after a node came back.
 */
export async function streamsCurrent(nc: NatsConnection, namespace: string): Promise<boolean> {
  const streams = await namespaceStreams(nc, namespace);
  return (
    streams.length > 0 &&
    streams.every(
      (s) =>
        !!s.cluster?.leader &&
        (s.cluster.replicas ?? []).length === s.config.num_replicas - 1 &&
        (s.cluster.replicas ?? []).every((r) => r.current && !r.offline && !r.lag),
    )
  );
}
