import type { RateLimiterAbstract } from 'rate-limiter-flexible';

/** One fixed-window limit: `points` per `duration` seconds, keys under `keyPrefix`. */
export interface RateLimiterSpec {
  keyPrefix: string;
  points: number;
  duration: number;
}

/**
 * Makes rate-limiter-flexible limiters on the mode's shared store (docs/architecture.md § Two
 * modes): Redis (`RateLimiterRedis`, atomic Lua increment) in services mode, the platform
 * database's `rate_limit` table (`RateLimiterPostgres`, one upsert) in embedded mode. Either way
 * every replica shares the counters and they survive a restart of the service.
 */
export abstract class RateLimiterFactory {
  abstract create(spec: RateLimiterSpec): RateLimiterAbstract;
}
