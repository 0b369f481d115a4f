import { type PeriodicJob, periodicJobs } from '@wp/observability';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { PLATFORM_POOL, PgListener } from '@wp/persistence';
import type { Pool } from 'pg';
import { Namespacer } from '../namespace.js';
import { RpcTransport, type RpcResponder } from '../rpc-transport.js';

/** A request older than this is no longer answered (its caller has given up). */
const REQUEST_TTL_SECONDS = 30;
const PURGE_MS = 60_000;

interface Pending {
  resolve: (body: string) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/** A `NOTIFY` channel name (at most 63 bytes): `prefix` + name, hashed when longer. */
export function notifyChannel(prefix: string, name: string): string {
  const channel = `${prefix}${name}`;
  if (Buffer.byteLength(channel) <= 63) return channel;
  return `${prefix}${createHash('sha256')
    .update(name)
    .digest('hex')
    .slice(0, 63 - prefix.length)}`;
}

/**
 * Embedded mode's {@link RpcTransport}, in the platform database: the caller inserts an
 * `rpc_request` row and wakes the subject's channel (`NOTIFY wp_rpc:<subject>`, one statement);
 * every replica of the serving service hears it and tries to take the row with `DELETE …
 * RETURNING`, so exactly one answers; the answer goes into `rpc_response` and wakes the caller's
 * own channel (`wp_rpc_reply:<random>`), and the caller takes it the same way. Bodies have no
 * size limit (they are rows, not notification payloads). A request nobody takes within the
 * timeout is withdrawn; rows left behind by a crash are purged after a minute.
 */
@Injectable()
export class PgRpcTransport extends RpcTransport implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('PgRpc');
  private readonly replyChannel = `wp_rpc_reply:${randomBytes(8).toString('hex')}`;
  private readonly pending = new Map<string, Pending>();
  private purge?: PeriodicJob;

  constructor(
    @Inject(PLATFORM_POOL) private readonly pool: Pool,
    private readonly listener: PgListener,
    private readonly names: Namespacer,
  ) {
    super();
  }

  async onModuleInit(): Promise<void> {
    await this.listener.listen(this.replyChannel, (id) => void this.onReply(id));
    // A failed purge is retried at the next tick; the rows only wait longer.
    this.purge = periodicJobs.every('messaging.rpc-purge', PURGE_MS, () =>
      Promise.all(
        ['rpc_request', 'rpc_response'].map((table) =>
          this.pool
            .query(`DELETE FROM ${table} WHERE created_at < now() - interval '1 minute'`)
            .catch(() => undefined),
        ),
      ),
    );
  }

  onApplicationShutdown(): void {
    void this.purge?.stop();
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(new Error('shutting down'));
      this.pending.delete(id);
    }
  }

  async request(subject: string, body: string, timeoutMs: number): Promise<string> {
    const id = randomUUID();
    const answer = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        this.pool.query('DELETE FROM rpc_request WHERE id = $1', [id]).catch(() => undefined);
        reject(new Error(`no answer on ${subject} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
    });
    try {
      await this.pool.query(
        `WITH r AS (
           INSERT INTO rpc_request (id, subject, body, reply_to) VALUES ($1, $2, $3, $4) RETURNING id
         )
         SELECT pg_notify($5, r.id::text) FROM r`,
        [id, subject, body, this.replyChannel, this.requestChannel(subject)],
      );
    } catch (error) {
      const pending = this.pending.get(id);
      if (pending) clearTimeout(pending.timer);
      this.pending.delete(id);
      throw error;
    }
    return answer;
  }

  async serve(subject: string, respond: RpcResponder): Promise<void> {
    await this.listener.listen(this.requestChannel(subject), (id) => {
      this.answer(id, respond).catch((error: unknown) =>
        this.logger.error(`${subject}: ${(error as Error).message}`),
      );
    });
  }

  /** Takes the request unless another replica did, answers it and wakes the caller. */
  private async answer(id: string, respond: RpcResponder): Promise<void> {
    const { rows } = await this.pool.query<{ body: string; reply_to: string }>(
      `DELETE FROM rpc_request
       WHERE id = $1 AND created_at > now() - make_interval(secs => $2)
       RETURNING body, reply_to`,
      [id, REQUEST_TTL_SECONDS],
    );
    if (rows.length === 0) return;
    const reply = await respond(rows[0].body);
    await this.pool.query(
      `WITH r AS (INSERT INTO rpc_response (id, body) VALUES ($1, $2) RETURNING id)
       SELECT pg_notify($3, r.id::text) FROM r`,
      [id, reply, rows[0].reply_to],
    );
  }

  private async onReply(id: string): Promise<void> {
    const pending = this.pending.get(id);
    if (!pending) return;
    try {
      const { rows } = await this.pool.query<{ body: string }>(
        'DELETE FROM rpc_response WHERE id = $1 RETURNING body',
        [id],
      );
      if (rows.length === 0) return;
      this.pending.delete(id);
      clearTimeout(pending.timer);
      pending.resolve(rows[0].body);
    } catch (error) {
      this.pending.delete(id);
      clearTimeout(pending.timer);
      pending.reject(error as Error);
    }
  }

  private requestChannel(subject: string): string {
    return notifyChannel('wp_rpc:', this.names.subject(subject));
  }
}
