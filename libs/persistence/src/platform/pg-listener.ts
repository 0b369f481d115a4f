import { backoffDelay } from '@wp/http';
import { Logger } from '@nestjs/common';
import { Client } from 'pg';

/** Receives the payload of one `NOTIFY` on a channel. */
export type NotificationHandler = (payload: string) => void;

/** Reconnect pauses: 100 ms doubling to 5 s (`backoffDelay`). */
const RECONNECT_BACKOFF = { initialMs: 100, maxMs: 5000 };

/**
 * One dedicated PostgreSQL session per process that `LISTEN`s on every channel the process
 * asked for (PostgreSQL docs, "LISTEN" and "NOTIFY"), so the revocation deny-list, request/reply
 * and whatever comes next share one connection. A lost session is reopened with back-off
 * (100 ms doubling to 5 s) and every channel listened to again; notifications sent while it was
 * gone are lost, so users register `onReconnect` to catch up (PostgreSQL delivers a channel's
 * notifications in commit order, and nothing in between a reconnect).
 */
export class PgListener {
  private readonly logger = new Logger('PgListener');
  private readonly handlers = new Map<string, Set<NotificationHandler>>();
  private readonly reconnectHandlers = new Set<() => void>();
  private client?: Client;
  private connecting?: Promise<void>;
  /** Failed connection attempts since the last success. */
  private failures = 0;
  private timer?: NodeJS.Timeout;
  private closed = false;
  private up = false;
  /** LISTEN/UNLISTEN commands, one at a time on the session. */
  private commands: Promise<unknown> = Promise.resolve();

  /**
   * @param url the platform database (`PLATFORM_DATABASE_URL`)
   * @param applicationName shown in `pg_stat_activity`
   */
  constructor(
    private readonly url: string,
    private readonly applicationName: string,
  ) {}

  /** Whether the session is open and listening on every registered channel. */
  get connected(): boolean {
    return this.up;
  }

  /** Opens the session (resolves after the first attempt, connected or not). */
  async start(): Promise<void> {
    await this.connect();
  }

  /**
   * Calls `handler` with the payload of every notification on `channel` (any string up to 63
   * bytes: it is quoted). Listens at once when the session is open.
   */
  async listen(channel: string, handler: NotificationHandler): Promise<void> {
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      await this.command('LISTEN', channel);
    }
    set.add(handler);
  }

  /** Stops delivering `channel` to `handler`. */
  async unlisten(channel: string, handler: NotificationHandler): Promise<void> {
    const set = this.handlers.get(channel);
    if (!set?.delete(handler) || set.size > 0) return;
    this.handlers.delete(channel);
    await this.command('UNLISTEN', channel);
  }

  /** Runs LISTEN or UNLISTEN on the open session (a closed one listens again on reconnect). */
  private command(verb: 'LISTEN' | 'UNLISTEN', channel: string): Promise<void> {
    const run = this.commands.then(async () => {
      const client = this.client;
      if (!this.up || !client) return;
      await client.query(`${verb} ${client.escapeIdentifier(channel)}`);
    });
    this.commands = run.catch(() => undefined);
    return run;
  }

  /** Runs `handler` after every reconnect (not after the first connect). */
  onReconnect(handler: () => void): void {
    this.reconnectHandlers.add(handler);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.up = false;
    clearTimeout(this.timer);
    await this.connecting;
    await this.client?.end().catch(() => undefined);
  }

  private connect(): Promise<void> {
    this.connecting ??= this.open().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async open(): Promise<void> {
    if (this.closed) return;
    const client = new Client({
      connectionString: this.url,
      application_name: this.applicationName,
      keepAlive: true,
      connectionTimeoutMillis: 5000,
    });
    const reconnect = this.client !== undefined;
    client.on('notification', (message) => {
      for (const handler of this.handlers.get(message.channel) ?? []) {
        handler(message.payload ?? '');
      }
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => undefined);
      this.schedule(`cannot listen: ${(error as Error).message}`);
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.up = true;
    try {
      for (const channel of [...this.handlers.keys()]) await this.command('LISTEN', channel);
    } catch {
      this.lost(client);
      return;
    }
    this.failures = 0;
    if (reconnect) {
      this.logger.log('listening again');
      for (const handler of this.reconnectHandlers) handler();
    }
  }

  private lost(client: Client): void {
    if (client !== this.client || !this.up) return;
    this.up = false;
    client.end().catch(() => undefined);
    this.schedule('connection lost');
  }

  private schedule(reason: string): void {
    if (this.closed) return;
    if (this.failures === 0) this.logger.warn(`${reason}; reconnecting`);
    clearTimeout(this.timer);
    this.timer = setTimeout(
      () => void this.connect(),
      backoffDelay(this.failures, RECONNECT_BACKOFF),
    );
    this.timer.unref();
    this.failures += 1;
  }
}
