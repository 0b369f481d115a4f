import { ApiClient } from './api.js';
import { METRICS_CACHE_MS, TtlCache } from './cache.js';
import type { ProjectKeyPair } from './documents.js';
import type { AnswerBody, QueryOf } from './operations.js';
import { numberedPages, type Paginator } from './paging.js';
import { withRetries, type RetryOptions } from './retry.js';
import type { FetchLike } from './session.js';

export type { ProjectKeyPair } from './documents.js';

/** Auto-refresh interval of metrics (docs/api.md § Limits), ms; failures back off exponentially. */
export const METRICS_REFRESH_MS = 30_000;
const MAX_BACKOFF_MS = 5 * 60_000;

/** `GET /api/public/metrics/daily` parameters: `fromTimestamp` and `toTimestamp` are required. */
export type DailyMetricsQuery = QueryOf<'/api/public/metrics/daily', 'get'>;
export type DailyMetrics = AnswerBody<'/api/public/metrics/daily', 'get'>;
/** `GET /api/public/traces` filters (`page` is the iterator's). */
export type TraceQuery = Omit<QueryOf<'/api/public/traces', 'get'>, 'page'>;
export type Trace = AnswerBody<'/api/public/traces', 'get'>['data'][number];
export type TraceDetail = AnswerBody<'/api/public/traces/{traceId}', 'get'>;

export interface AnalyticsOptions {
  /** The application key; analytics asks for it only when the platform is set to. */
  apiKey?: string;
  fetch?: FetchLike;
  /** Retries as {@link ClientOptions.retry}; `false` turns them off. */
  retry?: RetryOptions | false;
  now?: () => number;
}

/**
 * The analytics API (`/api/public`) with HTTP Basic credentials from a project's key pair
 * (docs/api.md § Authentication 7); daily metrics are cached 30 s, and {@link autoRefresh}
 * polls them every 30 s, backing off exponentially (up to 5 minutes) while they fail. Calls
 * resolve with their answer or reject with {@link PlatformApiError} (`code` in the analytics
 * API's lower-case codes, or the gateway's).
 */
export class AnalyticsClient {
  /** Every operation, typed ({@link ApiClient}), sent with the project's credentials. */
  readonly api: ApiClient;
  private readonly cache: TtlCache;

  constructor(baseUrl: string, keys: ProjectKeyPair, options: AnalyticsOptions = {}) {
    const basic = btoa(`${keys.publicKey}:${keys.secretKey}`);
    const fetchImpl = options.fetch ?? ((request: Request) => globalThis.fetch(request));
    this.cache = new TtlCache(options.now);
    const authenticated: FetchLike = (request) => {
      const headers = new Headers(request.headers);
      headers.set('Authorization', `Basic ${basic}`);
      if (options.apiKey) headers.set('Api-Key', options.apiKey);
      return fetchImpl(new Request(request, { headers }));
    };
    const transport =
      options.retry === false ? authenticated : withRetries(authenticated, options.retry ?? {});
    this.api = new ApiClient(baseUrl.replace(/\/$/, ''), transport);
  }

  /** `GET /api/public/metrics/daily`, cached 30 s per query. */
  async dailyMetrics(
    query: DailyMetricsQuery,
    options: { forceRefresh?: boolean } = {},
  ): Promise<DailyMetrics> {
    const key = `/metrics/daily?${canonicalQuery(query)}`;
    const hit = options.forceRefresh ? undefined : this.cache.get<DailyMetrics>(key);
    if (hit !== undefined) return hit;
    const { body } = await this.api.GET('/api/public/metrics/daily', { params: { query } });
    this.cache.set(key, body, METRICS_CACHE_MS);
    return body;
  }

  /** The project's traces, page after page (`page` / `limit`, `meta.totalPages`). */
  traces(query: TraceQuery = {}): Paginator<Trace> {
    return numberedPages(
      async (page) => {
        const { body } = await this.api.GET('/api/public/traces', {
          params: { query: { ...query, page } },
        });
        return { items: body.data, totalPages: body.meta.totalPages };
      },
      (trace) => trace.id,
    );
  }

  /** `GET /api/public/traces/{traceId}`: one trace with its observations and scores. */
  async trace(traceId: string): Promise<TraceDetail> {
    const { body } = await this.api.GET('/api/public/traces/{traceId}', {
      params: { path: { traceId } },
    });
    return body;
  }

  /**
   * Calls `onData` with fresh metrics now and every 30 s; after a failure the next try waits
   * twice as long (60 s, 120 s, … at most 5 minutes), back to 30 s after a success. `query` may
   * be a function, called before each read (a moving window such as "the last 7 days").
   * Returns stop.
   */
  autoRefresh(
    onData: (data: DailyMetrics) => void,
    options: {
      query: DailyMetricsQuery | (() => DailyMetricsQuery);
      onError?: (error: unknown) => void;
      intervalMs?: number;
    },
  ): () => void {
    const interval = options.intervalMs ?? METRICS_REFRESH_MS;
    const queryNow = () => (typeof options.query === 'function' ? options.query() : options.query);
    let delay = interval;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      try {
        onData(await this.dailyMetrics(queryNow(), { forceRefresh: true }));
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

/** The query as a cache key: keys sorted, arrays kept in order. */
function canonicalQuery(query: DailyMetricsQuery): string {
  return JSON.stringify(Object.entries(query).sort(([a], [b]) => (a < b ? -1 : 1)));
}
