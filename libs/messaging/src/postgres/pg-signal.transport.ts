import { Inject, Injectable, Logger } from '@nestjs/common';
import { PLATFORM_POOL, PgListener } from '@wp/persistence';
import type { Pool } from 'pg';
import { Namespacer } from '../namespace.js';
import { SignalTransport, type SignalHandler } from '../signal-transport.js';
import { notifyChannel } from './pg-rpc.transport.js';

/**
 * Embedded mode's {@link SignalTransport}: `NOTIFY wp_signal:<name>` on the platform database,
 * heard by every process's `LISTEN` session (`PgListener`). Signals sent while a session is
 * reconnecting are lost, as signals may be.
 */
@Injectable()
export class PgSignalTransport extends SignalTransport {
  private readonly logger = new Logger('PgSignal');

  constructor(
    @Inject(PLATFORM_POOL) private readonly pool: Pool,
    private readonly listener: PgListener,
    private readonly names: Namespacer,
  ) {
    super();
  }

  async signal(name: string): Promise<void> {
    try {
      await this.pool.query(`SELECT pg_notify($1, '')`, [this.channel(name)]);
    } catch (error) {
      this.logger.warn(`signal ${name}: ${(error as Error).message}`);
    }
  }

  listen(name: string, handler: SignalHandler): Promise<void> {
    return this.listener.listen(this.channel(name), () => handler());
  }

  private channel(name: string): string {
    return notifyChannel('wp_signal:', this.names.subject(name));
  }
}
