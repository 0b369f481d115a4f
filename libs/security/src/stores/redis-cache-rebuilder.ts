import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { REDIS, type Redis } from '@wp/persistence';
import { CacheRebuilder, REBUILD_REQUEST, type CacheWriter } from './cache-rebuilder.js';
import { RevocationStore } from './revocation.store.js';

/** A process asks for one writer's rebuild at most this often, ms. */
const REQUEST_EVERY_MS = 200;

/** One writer's rebuild: never two at once; a trigger during a run makes one more run after it. */
class Rebuild {
  private running?: Promise<void>;
  private again = false;

  constructor(
    private readonly writer: CacheWriter,
    private readonly work: () => Promise<void>,
    private readonly logger: Logger,
  ) {}

  /** @returns the run started or under way (never rejects) */
  trigger(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.work()
      .then(() => this.logger.log(`${this.writer}: shared stores rebuilt from its database`))
      .catch((error: unknown) =>
        this.logger.warn(`${this.writer}: rebuild failed (${(error as Error).message})`),
      )
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          void this.trigger();
        }
      });
    return this.running;
  }
}

/**
 * Services mode's {@link CacheRebuilder} (docs/architecture.md § Redis is a cache). A writer's
 * rebuild runs at boot, every time the Redis connection is ready again (a restart, perhaps
 * empty), and on `rebuild:<writer>` announcements, which readers send when a store could not
 * vouch for an answer (`FLUSHALL` or an eviction, which no connection event reveals). Processes
 * that write nothing only send requests.
 */
@Injectable()
export class RedisCacheRebuilder
  extends CacheRebuilder
  implements OnApplicationBootstrap, OnApplicationShutdown
{
  private readonly logger = new Logger('CacheRebuilder');
  private readonly rebuilds = new Map<CacheWriter, Rebuild>();
  private readonly lastRequest = new Map<CacheWriter, number>();
  private started = false;
  private unsubscribe?: () => Promise<void>;
  private readonly onReady = () => void this.runAll();

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly store: RevocationStore,
  ) {
    super();
  }

  register(writer: CacheWriter, rebuild: () => Promise<void>): void {
    const run = new Rebuild(writer, rebuild, this.logger);
    this.rebuilds.set(writer, run);
    if (this.started) void run.trigger();
  }

  request(writers: readonly CacheWriter[]): void {
    const now = Date.now();
    for (const writer of writers) {
      if (now - (this.lastRequest.get(writer) ?? 0) < REQUEST_EVERY_MS) continue;
      this.lastRequest.set(writer, now);
      void this.rebuilds.get(writer)?.trigger();
      this.store.announce(`${REBUILD_REQUEST}${writer}`).catch(() => undefined);
    }
  }

  async onApplicationBootstrap(): Promise<void> {
    this.started = true;
    if (this.rebuilds.size === 0) return;
    this.redis.on('ready', this.onReady);
    this.unsubscribe = await this.store
      .subscribe((message) => {
        if (!message.startsWith(REBUILD_REQUEST)) return;
        void this.rebuilds.get(message.slice(REBUILD_REQUEST.length) as CacheWriter)?.trigger();
      })
      .catch(() => undefined);
    await this.runAll(); // before the service listens: its first requests find the stores whole
  }

  async onApplicationShutdown(): Promise<void> {
    this.redis.off('ready', this.onReady);
    await this.unsubscribe?.().catch(() => undefined);
  }

  private async runAll(): Promise<void> {
    await Promise.all([...this.rebuilds.values()].map((run) => run.trigger()));
  }
}
