/** Freshness of cached organization, project list and wallet reads (docs/api.md § Limits), ms. */
export const READ_CACHE_MS = 5 * 60_000;
/** Freshness of cached metrics (docs/api.md § Limits), ms. */
export const METRICS_CACHE_MS = 30_000;

/** A small time-to-live cache keyed by request path; `invalidate` drops a path and below. */
export class TtlCache {
  private readonly entries = new Map<string, { value: unknown; until: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  get<T>(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value as T;
  }

  set(key: string, value: unknown, ttlMs: number): void {
    this.entries.set(key, { value, until: this.now() + ttlMs });
  }

  /** Drops `prefix` itself and every key below it (`/organizations/1` → `/organizations/1/…`). */
  invalidate(prefix: string): void {
    for (const key of this.entries.keys()) {
      if (key === prefix || key.startsWith(`${prefix}/`) || key.startsWith(`${prefix}?`)) {
        this.entries.delete(key);
      }
    }
  }

  clear(): void {
    this.entries.clear();
  }
}
