import type { EntityManager } from 'typeorm';
import type { EntityKey, IngestionUnitOfWork } from '../analytics-store.js';
import type { ObservationRecord, ScoreRecord, TraceRecord } from '../records.js';
import type { RecordOf, RowOf, Table } from '../schema/columns.js';
import { REFRESH_ROLLUPS_SQL } from './daily-rollup.sql.js';
import { OBSERVATION_ROWS, type RowMapping, SCORE_ROWS, TRACE_ROWS } from './row-mapping.js';
import { clean, keyArrays, lockId, quote } from './sql-values.js';

/**
 * The write side of one ingestion transaction on PostgreSQL (docs/analytics.md § Ingestion
 * semantics): every method runs on the transaction's `EntityManager`. Writes are multi-row
 * statements fed by one JSON parameter.
 */
export class PostgresUnitOfWork implements IngestionUnitOfWork {
  constructor(private readonly manager: EntityManager) {}

  async claimEvents(events: { projectId: number; eventId: string }[]): Promise<Set<string>> {
    if (events.length === 0) return new Set();
    const rows: { project_id: number; event_id: string }[] = await this.manager.query(
      `INSERT INTO ingestion_event (project_id, event_id)
       SELECT * FROM unnest($1::int[], $2::text[])
       ON CONFLICT DO NOTHING RETURNING project_id, event_id`,
      [events.map((e) => e.projectId), events.map((e) => clean(e.eventId))],
    );
    return new Set(rows.map((r) => `${r.project_id}:${r.event_id}`));
  }

  async lock(keys: { kind: 'trace' | 'observation' | 'score'; key: EntityKey }[]): Promise<void> {
    if (keys.length === 0) return;
    const ids = [...new Set(keys.map((k) => lockId(k.kind, k.key)))].sort();
    await this.manager.query(
      `SELECT pg_advisory_xact_lock(k) FROM (SELECT unnest($1::bigint[]) AS k ORDER BY 1) s`,
      [ids],
    );
  }

  async loadTraces(keys: EntityKey[]): Promise<TraceRecord[]> {
    if (keys.length === 0) return [];
    return this.load(TRACE_ROWS, keys);
  }

  async loadObservations(keys: EntityKey[]): Promise<ObservationRecord[]> {
    if (keys.length === 0) return [];
    return this.load(OBSERVATION_ROWS, keys);
  }

  async loadScores(keys: EntityKey[]): Promise<ScoreRecord[]> {
    if (keys.length === 0) return [];
    return this.load(SCORE_ROWS, keys);
  }

  async saveTraces(records: TraceRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.upsert(TRACE_ROWS, records);
  }

  async saveObservations(records: ObservationRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.upsert(OBSERVATION_ROWS, records);
  }

  async saveScores(records: ScoreRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.upsert(SCORE_ROWS, records);
  }

  /**
   * Recomputes what each trace contributes to the daily rollups (its trace count on its day, the
   * usage of its observations per day and model), subtracts what it contributed before (kept in
   * `trace.rollup`) and adds the difference, all in one statement with exact numeric arithmetic.
   * Rollup rows are written in key order, so concurrent writers cannot deadlock on them.
   */
  async refreshRollups(traces: EntityKey[]): Promise<void> {
    const byProject = new Map<number, string[]>();
    for (const key of traces) {
      const ids = byProject.get(key.projectId) ?? [];
      ids.push(key.id);
      byProject.set(key.projectId, ids);
    }
    for (const [projectId, ids] of [...byProject.entries()].sort((a, b) => a[0] - b[0])) {
      await this.manager.query(REFRESH_ROLLUPS_SQL, [projectId, [...new Set(ids)].map(clean)]);
    }
  }

  /** The stored records of these keys (those that exist), in no particular order. */
  private async load<T extends Table>(rows: RowMapping<T>, keys: EntityKey[]) {
    const found: RowOf<T>[] = await this.manager.query(
      `SELECT ${rows.select()} FROM ${rows.table}
       WHERE (project_id, id) IN (SELECT * FROM unnest($1::int[], $2::text[]))`,
      keyArrays(keys),
    );
    return found.map((row) => rows.toRecord(row));
  }

  /** Inserts or replaces records by `(project_id, id)` in one statement fed by one JSON array. */
  private async upsert<T extends Table>(rows: RowMapping<T>, records: RecordOf<T>[]) {
    const columns = rows.writeColumns;
    const updates = columns
      .filter((c) => c !== 'project_id' && c !== 'id')
      .map((c) => `${quote(c)} = excluded.${quote(c)}`)
      .join(', ');
    const list = columns.map(quote).join(', ');
    await this.manager.query(
      `INSERT INTO ${rows.table} (${list})
       SELECT ${list} FROM jsonb_populate_recordset(NULL::${rows.table}, $1::jsonb)
       ON CONFLICT (project_id, id) DO UPDATE SET ${updates}`,
      [
        JSON.stringify(
          records.map((record) => rows.toRow(record)),
          (_key, value: unknown) => (typeof value === 'string' ? clean(value) : value),
        ),
      ],
    );
  }
}
