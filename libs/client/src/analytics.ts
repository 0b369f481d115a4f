import createClient, { type Client } from 'openapi-fetch';
import { METRICS_CACHE_MS, TtlCache } from './cache.js';
import { PlatformApiError } from './errors.js';
import type { paths } from './schema.js';
import type { FetchLike } from './session.js';

/** A project's key pair (`GET …/projects/{id}?secret=true` → `meta.secrets`). */
export interface ProjectKeyPair {
  publicKey: string;
  secretKey: string;
}

/** Auto-refresh interval of metrics (docs/api.md § Limits), ms; failures back off exponentially. */
export const METRICS_REFRESH_MS = 30_000;
const MAX_BACKOFF_MS = 5 * 60_000;

/**
 * The analytics API (`/api/public`) with HTTP Basic credentials from a project's key pair
 * (docs/api.md § Authentication 7); daily metrics are cached 30 s, and {@link autoRefresh}
 * polls them every 30 s, backing off exponentially (up to 5 minutes) while they fail.
 */
export class AnalyticsClient {
  readonly api: Client<paths>;
  private readonly cache: TtlCache;

  constructor(
    baseUrl: string,
    keys: ProjectKeyPair,
    options: { apiKey?: string; fetch?: FetchLike; now?: () => number } = {},
  ) {
    const basic = btoa(`${keys.publicKey}:${keys.secretKey}`);
    const fetchImpl = options.fetch ?? ((request: Request) => globalThis.fetch(request));
    this.cache = new TtlCache(options.now);
    this.api = createClient<paths>({
      baseUrl: baseUrl.replace(/\/$/, ''),
      fetch: (request: Request) => {
        const headers = new Headers(request.headers);
        headers.set('Authorization', `Basic ${basic}`);
        if (options.apiKey) headers.set('Api-Key', options.apiKey);
        return fetchImpl(new Request(request, { headers }));
      },
    });
  }

  /** GET /api/public/metrics/daily, cached 30 s per query. */
  async dailyMetrics(query: Record<string, string> = {}, options: { forceRefresh?: boolean } = {}) {
    const key = `/metrics/daily?${new URLSearchParams(query).toString()}`;
    const hit = options.forceRefresh ? undefined : this.cache.get<unknown>(key);
    if (hit !== undefined) return hit;
    const { data, error, response } = await this.api.GET('/api/public/metrics/daily', {
      params: { query } as never,
    });
    if (!response.ok) {
      throw PlatformApiError.fromBody(
        response.status,
        error,
        response.headers.get('x-request-id') ?? undefined,
      );
    }
    this.cache.set(key, data, METRICS_CACHE_MS);
    return data;
  }

  /**
   * Calls `onData` with fresh metrics now and every 30 s; after a failure the next try waits
   * twice as long (60 s, 120 s, … at most 5 minutes), back to 30 s after a success. Returns stop.
   */
  autoRefresh(
    onData: (data: unknown) => void,
    options: {
      query?: Record<string, string>;
      onError?: (error: unknown) => void;
      intervalMs?: number;
    } = {},
  ): () => void {
    const interval = options.intervalMs ?? METRICS_REFRESH_MS;
    let delay = interval;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      try {
        onData(await this.dailyMetrics(options.query, { forceRefresh: true }));
        delay = interval;
      } catch (error) {
        options.onError?.(error);
        delay = Math.min(delay * 2, MAX_BACKOFF_MS);
      }
      if (!stopped) timer = setTimeout(() => void tick(), delay);
    };
    void tick();
    return () => {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
    };
  }
}
