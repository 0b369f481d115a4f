import type { DataSource } from 'typeorm';
import type {
  DailyMetricsQuery,
  ObservationRecord,
  TraceDetail,
  TraceOrderField,
  TraceQuery,
  TraceSummary,
} from '../records.js';
import type { OBSERVATION_TABLE } from '../schema/observation.table.js';
import type { RowOf } from '../schema/columns.js';
import type { SCORE_TABLE } from '../schema/score.table.js';
import type { TRACE_TABLE } from '../schema/trace.table.js';
import { DAY_MS, isoDay, rawTraceFilters, rollupFilters } from './rollup-filters.js';
import { OBSERVATION_ROWS, SCORE_ROWS, TRACE_ROWS } from './row-mapping.js';

/**
 * Trace reads of the PostgreSQL store (docs/analytics.md § Reads): the list with its aggregates
 * and the detail with observations and scores, always scoped to one project.
 */

/** A page of traces with their aggregates, and the number of traces matching the filters. */
export async function listTraces(
  db: DataSource,
  query: TraceQuery,
): Promise<{ items: TraceSummary[]; totalItems: number }> {
  const { where, params } = traceFilter(query);
  const order = orderClause(query.orderBy.field, query.orderBy.direction);
  const count = await countTraces(db, query, where, params);
  if (count === 0) return { items: [], totalItems: 0 };
  const offset = (query.page - 1) * query.limit;
  const rows: (RowOf<typeof TRACE_TABLE> & {
    observation_ids: string[] | null;
    score_ids: string[] | null;
    latency: string | null;
    total_cost: string | null;
  })[] = await db.query(
    `SELECT t.*, o.ids AS observation_ids, o.latency, o.total_cost, s.ids AS score_ids
     FROM (SELECT ${TRACE_ROWS.select('t')} FROM trace t WHERE ${where} ${order}
           LIMIT $${params.length + 1} OFFSET $${params.length + 2}) t
     LEFT JOIN LATERAL (
       SELECT array_agg(o.id ORDER BY o.start_time, o.id) AS ids,
              EXTRACT(EPOCH FROM greatest(max(o.start_time), max(o.end_time))
                               - least(min(o.start_time), min(o.end_time))) AS latency,
              sum(o.total_cost) AS total_cost
       FROM observation o WHERE o.project_id = t.project_id AND o.trace_id = t.id) o ON true
     LEFT JOIN LATERAL (
       SELECT array_agg(s.id ORDER BY s.timestamp, s.id) AS ids
       FROM score s
       WHERE s.project_id = t.project_id AND s.trace_id = t.id AND s.data_type <> 'CORRECTION') s
       ON true
     ${order}`,
    [...params, query.limit, offset],
  );
  return {
    totalItems: count,
    items: rows.map((row) => ({
      trace: TRACE_ROWS.toRecord(row),
      observationIds: row.observation_ids ?? [],
      scoreIds: row.score_ids ?? [],
      latency: row.latency === null ? 0 : Number(row.latency),
      totalCost: row.total_cost === null ? 0 : Number(row.total_cost),
    })),
  };
}

/**
 * The number of traces matching a list query. When every filter is one the rollup is keyed by
 * (user, name, tags, time), whole days are summed from `daily_trace_rollup` and only the partial
 * days at the edges are counted in `trace`: exact, and cheap however many traces there are.
 */
async function countTraces(
  db: DataSource,
  query: TraceQuery,
  where: string,
  params: unknown[],
): Promise<number> {
  const rollupable =
    query.sessionId === undefined &&
    query.version === undefined &&
    query.release === undefined &&
    !query.environments?.length &&
    query.userId !== '' &&
    query.name !== '';
  if (!rollupable) {
    const [{ count }] = await db.query<{ count: number }[]>(
      `SELECT count(*)::int AS count FROM trace t WHERE ${where}`,
      params,
    );
    return count;
  }
  const from = query.fromTimestamp?.getTime() ?? -8.64e15;
  const to = query.toTimestamp?.getTime() ?? 8.64e15;
  if (!(from < to)) return 0;
  const start = Math.max(Math.ceil(from / DAY_MS) * DAY_MS, -8.64e15);
  const end = Math.min(Math.floor(to / DAY_MS) * DAY_MS, 8.64e15);
  const filters: DailyMetricsQuery = {
    projectId: query.projectId,
    fromTimestamp: new Date(from),
    toTimestamp: new Date(to),
    traceName: query.name,
    userId: query.userId,
    tags: query.tags,
  };
  let total = 0;
  const rawCount = async (a: number, b: number) => {
    const p: unknown[] = [query.projectId, new Date(a), new Date(b)];
    const f = rawTraceFilters(filters, p);
    const [{ count }] = await db.query<{ count: number }[]>(
      `SELECT count(*)::int AS count FROM trace t
       WHERE t.project_id = $1 AND t.timestamp >= $2 AND t.timestamp < $3 ${f}`,
      p,
    );
    return count;
  };
  if (start >= end) return rawCount(from, to);
  const p: unknown[] = [query.projectId];
  const bounds: string[] = [];
  if (query.fromTimestamp) {
    p.push(isoDay(start));
    bounds.push(`AND day >= $${p.length}::date`);
  }
  if (query.toTimestamp) {
    p.push(isoDay(end));
    bounds.push(`AND day < $${p.length}::date`);
  }
  const f = rollupFilters(filters, p);
  const [{ count }] = await db.query<{ count: string | null }[]>(
    `SELECT sum(count_traces)::bigint AS count FROM daily_trace_rollup
     WHERE project_id = $1 ${bounds.join(' ')} ${f}`,
    p,
  );
  total += Number(count ?? 0);
  if (query.fromTimestamp && from < start) total += await rawCount(from, start);
  if (query.toTimestamp && end < to) total += await rawCount(end, to);
  return total;
}

/** One trace with its observations and scores, or null (unknown, or another project's). */
export async function getTrace(
  db: DataSource,
  projectId: number,
  traceId: string,
): Promise<TraceDetail | null> {
  const traces: RowOf<typeof TRACE_TABLE>[] = await db.query(
    `SELECT ${TRACE_ROWS.select()} FROM trace WHERE project_id = $1 AND id = $2`,
    [projectId, traceId],
  );
  if (traces.length === 0) return null;
  const [observations, scores] = await Promise.all([
    db.query<RowOf<typeof OBSERVATION_TABLE>[]>(
      `SELECT ${OBSERVATION_ROWS.select()} FROM observation
       WHERE project_id = $1 AND trace_id = $2 ORDER BY start_time, id`,
      [projectId, traceId],
    ),
    db.query<RowOf<typeof SCORE_TABLE>[]>(
      `SELECT ${SCORE_ROWS.select()} FROM score WHERE project_id = $1 AND trace_id = $2 AND data_type <> 'CORRECTION'
       ORDER BY timestamp, id`,
      [projectId, traceId],
    ),
  ]);
  const obs = observations.map((row) => OBSERVATION_ROWS.toRecord(row));
  return {
    trace: TRACE_ROWS.toRecord(traces[0]),
    observations: obs,
    scores: scores.map((row) => SCORE_ROWS.toRecord(row)),
    latency: latencyOf(obs),
    totalCost: obs.reduce((sum, o) => sum + (o.totalCost ?? 0), 0),
  };
}

const ORDER_COLUMNS: Record<TraceOrderField, string | null> = {
  id: 't.id',
  timestamp: 't.timestamp',
  name: 't.name',
  userId: 't.user_id',
  release: 't.release',
  version: 't.version',
  public: 't.public',
  bookmarked: null, // no bookmarks here: every trace is unbookmarked, so the default order holds
  sessionId: 't.session_id',
};

function orderClause(field: TraceOrderField, direction: 'asc' | 'desc'): string {
  const dir = direction === 'asc' ? 'ASC' : 'DESC';
  const column = ORDER_COLUMNS[field];
  if (column === null || column === 't.timestamp') {
    const d = column === null ? 'DESC' : dir;
    return `ORDER BY t.timestamp ${d}, t.id ${d}`;
  }
  return `ORDER BY ${column} ${dir} NULLS LAST, t.timestamp DESC, t.id ${dir}`;
}

function traceFilter(query: TraceQuery): { where: string; params: unknown[] } {
  const params: unknown[] = [query.projectId];
  const clauses = ['t.project_id = $1'];
  const add = (sql: (p: string) => string, value: unknown) => {
    params.push(value);
    clauses.push(sql(`$${params.length}`));
  };
  if (query.userId !== undefined) add((p) => `t.user_id = ${p}`, query.userId);
  if (query.name !== undefined) add((p) => `t.name = ${p}`, query.name);
  if (query.sessionId !== undefined) add((p) => `t.session_id = ${p}`, query.sessionId);
  if (query.version !== undefined) add((p) => `t.version = ${p}`, query.version);
  if (query.release !== undefined) add((p) => `t.release = ${p}`, query.release);
  if (query.environments?.length)
    add((p) => `t.environment = ANY(${p}::text[])`, query.environments);
  if (query.fromTimestamp) add((p) => `t.timestamp >= ${p}`, query.fromTimestamp);
  if (query.toTimestamp) add((p) => `t.timestamp < ${p}`, query.toTimestamp);
  if (query.tags?.length) add((p) => `t.tags @> ${p}::text[]`, query.tags);
  return { where: clauses.join(' AND '), params };
}

/** Seconds from the earliest to the latest observation time (Langfuse's trace latency). */
export function latencyOf(observations: ObservationRecord[]): number {
  if (observations.length === 0) return 0;
  let min = Infinity;
  let max = -Infinity;
  for (const o of observations) {
    for (const d of [o.startTime, o.endTime]) {
      if (!d) continue;
      min = Math.min(min, d.getTime());
      max = Math.max(max, d.getTime());
    }
  }
  return (max - min) / 1000;
}
