import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { ANALYTICS_CONFIG, type AnalyticsConfig } from '../../config/analytics.config.js';
import { applyUsageAndCost } from '../pricing/cost.js';
import { PriceTable } from '../pricing/price-table.js';
import {
  AnalyticsStore,
  type EntityKey,
  type IngestionUnitOfWork,
} from '../storage/analytics-store.js';
import type { ObservationRecord, ScoreRecord, TraceRecord } from '../storage/records.js';
import type { Change } from './changes.js';
import { implicitTrace, mergeObservation, mergeScore, mergeTrace } from './merge.js';

interface Submission {
  changes: Change[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Writes ingestion changes with group commit (docs/analytics.md § Ingestion semantics): a request's
 * changes join whatever is waiting, up to `ANALYTICS_WRITE_CONCURRENCY` transactions at a time
 * apply them (advisory locks serialise writers on the same entities), and each request learns
 * the outcome of its own changes. Under load transactions grow instead of multiplying; an
 * answered request is committed and readable at once. A transaction that fails is retried per
 * request, so one bad request cannot fail the others.
 */
@Injectable()
export class IngestionWriter implements OnApplicationShutdown {
  private readonly logger = new Logger('IngestionWriter');
  private pending: Submission[] = [];
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly store: AnalyticsStore,
    private readonly prices: PriceTable,
    @Inject(ANALYTICS_CONFIG) private readonly config: AnalyticsConfig,
  ) {}

  /** Resolves once `changes` are committed; rejects when they could not be written. */
  submit(changes: Change[]): Promise<void> {
    if (changes.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ changes, resolve, reject });
      this.kick();
    });
  }

  async onApplicationShutdown(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running);
  }

  /** Starts another writer loop while there is work and fewer than the configured loops run. */
  private kick(): void {
    if (this.running.size >= this.config.ANALYTICS_WRITE_CONCURRENCY) return;
    const loop: Promise<void> = this.drain().finally(() => {
      this.running.delete(loop);
      if (this.pending.length > 0) this.kick();
    });
    this.running.add(loop);
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0) {
      const group: Submission[] = [];
      let events = 0;
      while (this.pending.length > 0) {
        const next = this.pending[0];
        if (
          group.length > 0 &&
          events + next.changes.length > this.config.ANALYTICS_WRITE_MAX_EVENTS
        ) {
          break;
        }
        group.push(this.pending.shift()!);
        events += next.changes.length;
      }
      try {
        await this.commit(group.flatMap((s) => s.changes));
        for (const s of group) s.resolve();
      } catch (error) {
        if (group.length === 1) {
          this.logger.error(`ingestion write failed: ${(error as Error).message}`);
          group[0].reject(error);
          continue;
        }
        for (const s of group) {
          try {
            await this.commit(s.changes);
            s.resolve();
          } catch (own) {
            this.logger.error(`ingestion write failed: ${(own as Error).message}`);
            s.reject(own);
          }
        }
      }
    }
  }

  /**
   * One transaction; a deadlock or serialization victim runs again whole (the DataSource's
   * retry policy, docs/architecture.md § Deadlocks and serialization failures).
   */
  private async commit(changes: Change[]): Promise<void> {
    await this.store.write((uow) => this.apply(uow, changes));
  }

  /** One transaction: dedupe, lock, load, merge, price, save, refresh the rollups. */
  private async apply(uow: IngestionUnitOfWork, input: Change[]): Promise<void> {
    const changes = await this.firstSeen(uow, sortForApply(input));
    if (changes.length === 0) return;
    const now = new Date();

    const traceKeys = new KeyMap<true>();
    const observationKeys = new KeyMap<true>();
    const scoreKeys = new KeyMap<true>();
    for (const c of changes) {
      if (c.kind === 'trace') traceKeys.set(c.projectId, c.patch.id, true);
      if (c.kind === 'score') scoreKeys.set(c.projectId, c.patch.id, true);
      if (c.kind === 'observation') {
        observationKeys.set(c.projectId, c.patch.id, true);
        traceKeys.set(c.projectId, c.patch.traceId ?? c.patch.id, true);
      }
    }
    await uow.lock([
      ...traceKeys.keys().map((key) => ({ kind: 'trace' as const, key })),
      ...observationKeys.keys().map((key) => ({ kind: 'observation' as const, key })),
      ...scoreKeys.keys().map((key) => ({ kind: 'score' as const, key })),
    ]);
    const observations = KeyMap.of(await uow.loadObservations(observationKeys.keys()));
    const late = observations
      .values()
      .map((o) => ({ projectId: o.projectId, id: o.traceId }))
      .filter((k) => !traceKeys.has(k.projectId, k.id));
    if (late.length > 0) {
      await uow.lock(late.map((key) => ({ kind: 'trace' as const, key })));
      for (const k of late) traceKeys.set(k.projectId, k.id, true);
    }
    const [traceRows, scoreRows] = await Promise.all([
      uow.loadTraces(traceKeys.keys()),
      uow.loadScores(scoreKeys.keys()),
    ]);
    const traces = KeyMap.of(traceRows);
    const scores = KeyMap.of(scoreRows);

    const changedTraces = new KeyMap<TraceRecord>();
    const changedObservations = new KeyMap<ObservationRecord>();
    const changedScores = new KeyMap<ScoreRecord>();
    for (const c of changes) {
      switch (c.kind) {
        case 'trace': {
          const merged = mergeTrace(
            traces.get(c.projectId, c.patch.id),
            c.patch,
            c.timestamp,
            now,
            c.projectId,
          );
          traces.set(c.projectId, merged.id, merged);
          changedTraces.set(c.projectId, merged.id, merged);
          break;
        }
        case 'observation': {
          const merged = mergeObservation(
            observations.get(c.projectId, c.patch.id),
            c.patch,
            c.op,
            c.type,
            c.timestamp,
            now,
            c.projectId,
          );
          observations.set(c.projectId, merged.id, merged);
          changedObservations.set(c.projectId, merged.id, merged);
          break;
        }
        case 'score': {
          const merged = mergeScore(
            scores.get(c.projectId, c.patch.id),
            c.patch,
            c.timestamp,
            now,
            c.projectId,
          );
          scores.set(c.projectId, merged.id, merged);
          changedScores.set(c.projectId, merged.id, merged);
          break;
        }
      }
    }

    const rollupTraces = new KeyMap<true>();
    for (const t of changedTraces.values()) rollupTraces.set(t.projectId, t.id, true);
    const priced = changedObservations.values().map((o) => {
      if (!traces.has(o.projectId, o.traceId)) {
        const trace = implicitTrace(o, now);
        traces.set(o.projectId, trace.id, trace);
        changedTraces.set(o.projectId, trace.id, trace);
      }
      rollupTraces.set(o.projectId, o.traceId, true);
      const price = o.model ? this.prices.match(o.projectId, o.model, o.startTime) : null;
      return applyUsageAndCost(o, price);
    });

    await uow.saveTraces(changedTraces.values());
    await uow.saveObservations(priced);
    await uow.saveScores(changedScores.values());
    await uow.refreshRollups(rollupTraces.keys());
  }

  /** Drops changes whose event id was applied before (in this batch or an earlier one). */
  private async firstSeen(uow: IngestionUnitOfWork, changes: Change[]): Promise<Change[]> {
    const seen = new Set<string>();
    const unique = changes.filter((c) => {
      if (c.eventId === null) return true;
      const key = `${c.projectId}:${c.eventId}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    const claimable = unique.filter((c) => c.eventId !== null);
    const claimed = await uow.claimEvents(
      claimable.map((c) => ({ projectId: c.projectId, eventId: c.eventId! })),
    );
    return unique.filter((c) => c.eventId === null || claimed.has(`${c.projectId}:${c.eventId}`));
  }
}

/** Langfuse order: creates before updates, each by event time (stable). */
export function sortForApply(changes: Change[]): Change[] {
  const rank = (c: Change) => (c.kind === 'observation' && c.op === 'update' ? 1 : 0);
  return changes
    .map((c, i) => ({ c, i }))
    .sort(
      (a, b) =>
        rank(a.c) - rank(b.c) || a.c.timestamp.getTime() - b.c.timestamp.getTime() || a.i - b.i,
    )
    .map((x) => x.c);
}

/** Records by `(projectId, id)`. */
class KeyMap<V> {
  private readonly map = new Map<string, { key: EntityKey; value: V }>();

  static of<R extends EntityKey>(records: R[]): KeyMap<R> {
    const m = new KeyMap<R>();
    for (const r of records) m.set(r.projectId, r.id, r);
    return m;
  }

  set(projectId: number, id: string, value: V): void {
    this.map.set(`${projectId}\u0001${id}`, { key: { projectId, id }, value });
  }

  get(projectId: number, id: string): V | undefined {
    return this.map.get(`${projectId}\u0001${id}`)?.value;
  }

  has(projectId: number, id: string): boolean {
    return this.map.has(`${projectId}\u0001${id}`);
  }

  keys(): EntityKey[] {
    return [...this.map.values()].map((e) => e.key);
  }

  values(): V[] {
    return [...this.map.values()].map((e) => e.value);
  }
}
