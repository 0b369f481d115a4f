import type { EntityManager } from 'typeorm';
import type { EntityKey, IngestionUnitOfWork } from '../analytics-store.js';
import type { ObservationRecord, ScoreRecord, TraceRecord } from '../records.js';
import { REFRESH_ROLLUPS_SQL } from './daily-rollup.sql.js';
import {
  fromObservation,
  fromScore,
  fromTrace,
  OBSERVATION_WRITE_COLUMNS,
  type ObservationRow,
  SCORE_WRITE_COLUMNS,
  type ScoreRow,
  TRACE_COLUMNS,
  TRACE_WRITE_COLUMNS,
  type TraceRow,
  toObservation,
  toScore,
  toTrace,
} from './row-mapping.js';
import { clean, keyArrays, lockId, quote } from './sql-values.js';

/**
 * The write side of one ingestion transaction on PostgreSQL (docs/analytics.md § Ingestion):
 * every method runs on the transaction's `EntityManager`. Writes are multi-row statements fed
 * by one JSON parameter.
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
    const rows: TraceRow[] = await this.manager.query(
      `SELECT ${TRACE_COLUMNS} FROM trace t
       WHERE (t.project_id, t.id) IN (SELECT * FROM unnest($1::int[], $2::text[]))`,
      keyArrays(keys),
    );
    return rows.map(toTrace);
  }

  async loadObservations(keys: EntityKey[]): Promise<ObservationRecord[]> {
    if (keys.length === 0) return [];
    const rows: ObservationRow[] = await this.manager.query(
      `SELECT * FROM observation
       WHERE (project_id, id) IN (SELECT * FROM unnest($1::int[], $2::text[]))`,
      keyArrays(keys),
    );
    return rows.map(toObservation);
  }

  async loadScores(keys: EntityKey[]): Promise<ScoreRecord[]> {
    if (keys.length === 0) return [];
    const rows: ScoreRow[] = await this.manager.query(
      `SELECT * FROM score WHERE (project_id, id) IN (SELECT * FROM unnest($1::int[], $2::text[]))`,
      keyArrays(keys),
    );
    return rows.map(toScore);
  }

  async saveTraces(records: TraceRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.upsert('trace', TRACE_WRITE_COLUMNS, records.map(fromTrace));
  }

  async saveObservations(records: ObservationRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.upsert('observation', OBSERVATION_WRITE_COLUMNS, records.map(fromObservation));
  }

  async saveScores(records: ScoreRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.upsert('score', SCORE_WRITE_COLUMNS, records.map(fromScore));
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

  private async upsert(table: string, columns: readonly string[], rows: object[]): Promise<void> {
    const updates = columns
      .filter((c) => c !== 'project_id' && c !== 'id')
      .map((c) => `${quote(c)} = excluded.${quote(c)}`)
      .join(', ');
    const list = columns.map(quote).join(', ');
    await this.manager.query(
      `INSERT INTO ${table} (${list})
       SELECT ${list} FROM jsonb_populate_recordset(NULL::${table}, $1::jsonb)
       ON CONFLICT (project_id, id) DO UPDATE SET ${updates}`,
      [
        JSON.stringify(rows, (_key, value: unknown) =>
          typeof value === 'string' ? clean(value) : value,
        ),
      ],
    );
  }
}
