/**
 * The endpoints a dispatcher leases nothing ahead for (docs/org.md § Webhooks, Dispatcher):
 * those whose last attempt in this process failed or was slow. A mark is forgotten after
 * `forgetAfterMs` without a new slow attempt, so an endpoint deleted, disabled, moved to another
 * process or long recovered does not stay in memory, nor in every claim's parameters, for ever;
 * if it is still slow, its next attempt marks it again (one queue leased ahead at most).
 */
export class SlowEndpoints {
  /** Endpoint id → when its last slow attempt ended (ms since the epoch), oldest first. */
  private readonly marked = new Map<string, number>();

  /** @param forgetAfterMs how long, ms, a mark lasts without a new slow attempt */
  constructor(private readonly forgetAfterMs: number) {}

  /**
   * Marks `endpointId` slow at `now` (ms since the epoch); returns whether it was not marked.
   * A mark already there is renewed.
   */
  mark(endpointId: string, now: number): boolean {
    const fresh = !this.marked.delete(endpointId);
    this.marked.set(endpointId, now);
    return fresh;
  }

  /** Whether `endpointId` is marked slow (a mark past its time counts until `live` drops it). */
  has(endpointId: string): boolean {
    return this.marked.has(endpointId);
  }

  /** An attempt that succeeded quickly: the endpoint is leased ahead again. */
  clear(endpointId: string): void {
    this.marked.delete(endpointId);
  }

  /**
   * The ids marked slow at `now` (ms since the epoch), for a claim; marks older than
   * `forgetAfterMs` are dropped on the way (the map is in order of marking, so it stops at the
   * first live one: the cost is the expired marks, then one copy of the live ones).
   */
  live(now: number): string[] {
    for (const [endpointId, at] of this.marked) {
      if (now - at <= this.forgetAfterMs) break;
      this.marked.delete(endpointId);
    }
    return [...this.marked.keys()];
  }

  /** How many endpoints are marked (tests, metrics). */
  get size(): number {
    return this.marked.size;
  }
}
