import { Dispatcher, Pool } from 'undici';

/** How many recent requests' replica choices are remembered (retries follow within ms). */
const REMEMBERED = 4096;

/** How long a replica that refused a connection is passed over, ms. */
const PAUSE_AFTER_REFUSAL_MS = 1000;

/**
 * An undici dispatcher over the replicas of one service (docs/architecture.md § Upstream
 * failures at the gateway): one connection pool per replica, requests in turn, and a request
 * sent again (the same `X-Request-Id`, which the gateway sets on every request) goes to the
 * replica after the one it tried last — so reply-from's retry of a refused connection or a
 * draining replica's 503 reaches another replica, whatever other requests did meanwhile. A
 * replica whose connection failed is passed over for a second (unless every replica is), so
 * requests with a body — which are not sent twice — mostly stop meeting a stopped replica.
 * undici's `BalancedPool` weighs replicas but may send a retry back to the same one.
 * @see https://undici.nodejs.org/#/docs/api/Dispatcher
 */
export class ReplicaPool extends Dispatcher {
  private readonly pools: Pool[];
  private readonly origins: string[];
  private turn = 0;
  /** Per replica: until when it is passed over (a failed connection), epoch ms. */
  private readonly pausedUntil: number[];
  /** Request id → index of the replica it was last sent to (insertion order: oldest first). */
  private readonly last = new Map<string, number>();

  constructor(urls: string[], options: Pool.Options = {}) {
    super();
    this.origins = urls.map((u) => new URL(u).origin);
    this.pools = this.origins.map((origin) => new Pool(origin, options));
    this.pausedUntil = this.pools.map(() => 0);
    this.pools.forEach((pool, index) =>
      pool.on('connectionError', () => {
        this.pausedUntil[index] = Date.now() + PAUSE_AFTER_REFUSAL_MS;
      }),
    );
  }

  override dispatch(
    options: Dispatcher.DispatchOptions,
    handler: Dispatcher.DispatchHandler,
  ): boolean {
    const index = this.choose(requestIdOf(options.headers));
    return this.pools[index].dispatch({ ...options, origin: this.origins[index] }, handler);
  }

  private choose(requestId: string | undefined): number {
    const previous = requestId === undefined ? undefined : this.last.get(requestId);
    const start = previous === undefined ? this.turn++ : previous + 1;
    const index = this.firstAvailable(start);
    if (requestId !== undefined) {
      this.last.delete(requestId);
      this.last.set(requestId, index);
      if (this.last.size > REMEMBERED) this.last.delete(this.last.keys().next().value!);
    }
    return index;
  }

  /** The first replica from `start` on (in turn) that is not paused; `start`'s if all are. */
  private firstAvailable(start: number): number {
    const now = Date.now();
    for (let i = 0; i < this.pools.length; i++) {
      const index = (start + i) % this.pools.length;
      if (this.pausedUntil[index] <= now) return index;
    }
    return start % this.pools.length;
  }

  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void {
    const closed = Promise.all(this.pools.map((pool) => pool.close())).then(() => undefined);
    if (!callback) return closed;
    void closed.then(callback);
  }

  override destroy(): Promise<void>;
  override destroy(err: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(err: Error | null, callback: () => void): void;
  override destroy(first?: Error | null | (() => void), second?: () => void): Promise<void> | void {
    const err = typeof first === 'function' ? null : (first ?? null);
    const callback = typeof first === 'function' ? first : second;
    const destroyed = Promise.all(this.pools.map((pool) => pool.destroy(err))).then(
      () => undefined,
    );
    if (!callback) return destroyed;
    void destroyed.then(callback);
  }
}

function requestIdOf(headers: Dispatcher.DispatchOptions['headers']): string | undefined {
  if (headers === null || headers === undefined || Array.isArray(headers)) return undefined;
  const value = (headers as Record<string, unknown>)['x-request-id'];
  return typeof value === 'string' ? value : undefined;
}
