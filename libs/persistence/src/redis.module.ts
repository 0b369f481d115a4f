import { backoffDelay } from '@wp/http';
import { Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { ReadinessRegistry, startupPhases } from '@wp/observability';
import { Redis, type Command, type RedisOptions as IORedisOptions } from 'ioredis';

export const REDIS = Symbol('REDIS');

/** Default bound of one Redis command, ms (`REDIS_COMMAND_TIMEOUT_MS`). */
export const DEFAULT_REDIS_COMMAND_TIMEOUT_MS = 500;
/** Bound of opening a connection, ms; also how long a boot waits for Redis before going on. */
const CONNECT_TIMEOUT_MS = 1000;
/** Longest pause between reconnection attempts, ms: Redis back → used again within it. */
/** ioredis reconnect pauses: 50 ms doubling, at most 500 ms (`backoffDelay`). */
const REDIS_RECONNECT_BACKOFF = { initialMs: 50, maxMs: 500 };

export interface RedisOptions {
  url: string;
  /** Prepended to every key (ioredis `keyPrefix`), e.g. `wp:`. */
  keyPrefix: string;
  /** Bound of one command, ms (default {@link DEFAULT_REDIS_COMMAND_TIMEOUT_MS}). */
  commandTimeoutMs?: number;
}

/**
 * ioredis options with replies in RESP2 shapes (`replyMapping: 'legacy'`, ioredis 6's default
 * over RESP3): maps as flat arrays, doubles as strings, as every caller here reads them.
 */
export type LegacyReplyRedisOptions = Omit<IORedisOptions, 'replyMapping'> & {
  replyMapping?: 'legacy';
};

/**
 * The ioredis options of every service connection (docs/operations.md § Without Redis): fail fast
 * instead of waiting for Redis. While the connection is not ready a command is refused at once
 * (`enableOfflineQueue: false`) and a command in flight when the connection drops is not retried
 * (`maxRetriesPerRequest: 0`); reconnection is attempted at least every 500 ms, so a Redis that is
 * back is used again within that. The command timeout is {@link FailFastRedis}'s. Callers turn
 * rejections into 503 with `Retry-After` (`storeUnavailable` of @wp/http).
 * @see https://github.com/redis/ioredis#offline-queue
 */
export function failFastRedisOptions(
  options: Pick<RedisOptions, 'keyPrefix'>,
): LegacyReplyRedisOptions {
  return {
    keyPrefix: options.keyPrefix,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: CONNECT_TIMEOUT_MS,
    // ioredis counts attempts from 1: 50, 100, 200, 400, then every 500 ms.
    retryStrategy: (attempt: number) => backoffDelay(attempt - 1, REDIS_RECONNECT_BACKOFF),
    lazyConnect: false,
  };
}

/**
 * An ioredis client whose commands time out, with a circuit breaker. A command Redis has not
 * answered after `commandTimeoutMs` (a hung server, a silent network) is rejected with
 * "Command timed out" and the connection is dropped and opened again: until Redis answers the
 * new connection's ready check every command is refused at once (no offline queue), so only the
 * requests in flight at that moment wait, not every request while Redis hangs. The decision waits
 * one turn of the event loop (`setImmediate`): after a stall of the process itself (CPU
 * starvation, a long GC) the answer may be in the socket unread, and it is read first, so a slow
 * process is not taken for a hung Redis (ioredis' own `commandTimeout` decides before reading).
 */
export class FailFastRedis extends Redis {
  constructor(
    url: string,
    options: LegacyReplyRedisOptions,
    private readonly commandTimeoutMs = DEFAULT_REDIS_COMMAND_TIMEOUT_MS,
  ) {
    super(url, options);
  }

  override sendCommand(command: Command, stream?: Parameters<Redis['sendCommand']>[1]): unknown {
    const result = super.sendCommand(command, stream);
    let answered = false;
    const timer = setTimeout(() => {
      setImmediate(() => {
        if (answered) return;
        command.reject(new Error('Command timed out'));
        if (this.status === 'ready') this.disconnect(true);
      });
    }, this.commandTimeoutMs);
    const settled = () => {
      answered = true;
      clearTimeout(timer);
    };
    command.promise.then(settled, settled);
    return result;
  }
}

/**
 * Resolves once `redis` is ready, or after `ms` anyway (a boot does not wait for a Redis that is
 * down: requests needing it answer 503 until it is back).
 */
function readyOrTimeout(redis: Redis, ms: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    redis.once('ready', done);
  });
}

/**
 * One ioredis client per service (`@Inject(REDIS) redis: Redis`), failing fast
 * ({@link failFastRedisOptions}, {@link FailFastRedis}). Keys are prefixed with `REDIS_KEY_PREFIX`, so test runs and
 * deployments sharing a Redis never collide. Readiness reports Redis as `degraded`, not
 * `required` (docs/operations.md § Readiness): every replica depends on the same Redis, and
 * taking them all out of the load balancer would turn fast, explained 503s into connection
 * errors.
 */
@Module({})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  static forRoot(options: RedisOptions): DynamicModule {
    return {
      module: RedisModule,
      global: true,
      providers: [
        {
          provide: REDIS,
          inject: [ReadinessRegistry],
          useFactory: async (readiness: ReadinessRegistry) => {
            const redis = new FailFastRedis(
              options.url,
              failFastRedisOptions(options),
              options.commandTimeoutMs,
            );
            redis.on('error', () => undefined); // reconnects by itself; readiness reports it
            readiness.register(
              'redis',
              async () => {
                await redis.ping();
              },
              'degraded',
            );
            await startupPhases.track('redis', () => readyOrTimeout(redis, CONNECT_TIMEOUT_MS));
            return redis;
          },
        },
      ],
      exports: [REDIS],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
