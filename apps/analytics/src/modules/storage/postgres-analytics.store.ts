import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { AnalyticsStore, type EntityKey, type IngestionUnitOfWork } from './analytics-store.js';
import type {
  DailyMetricsDay,
  DailyMetricsQuery,
  ModelPriceRecord,
  ModelUsage,
  ObservationLevel,
  ObservationRecord,
  ObservationType,
  ScoreDataType,
  ScoreRecord,
  ScoreSource,
  TraceDetail,
  TraceOrderField,
  TraceQuery,
  TraceRecord,
  TraceSummary,
} from './records.js';

const DAY_MS = 86_400_000;

/**
 * PostgreSQL implementation of {@link AnalyticsStore} (docs/analytics.md § Storage): the only
 * file of the analytics service that queries its trace tables. Writes go through multi-row
 * statements fed by one JSON parameter; daily metrics read a rollup maintained on ingest by
 * deltas, and compute partial days at the edges of a time range from the base tables, so the
 * answer is exact for any `[from, to)`.
 */
@Injectable()
export class PostgresAnalyticsStore extends AnalyticsStore {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  write<T>(work: (uow: IngestionUnitOfWork) => Promise<T>): Promise<T> {
    return this.dataSource.transaction((manager) => work(new PostgresUnitOfWork(manager)));
  }

  async listTraces(query: TraceQuery): Promise<{ items: TraceSummary[]; totalItems: number }> {
    const { where, params } = traceFilter(query);
    const order = orderClause(query.orderBy.field, query.orderBy.direction);
    const count = await this.countTraces(query, where, params);
    if (count === 0) return { items: [], totalItems: 0 };
    const offset = (query.page - 1) * query.limit;
    const rows: (TraceRow & {
      observation_ids: string[] | null;
      score_ids: string[] | null;
      latency: string | null;
      total_cost: string | null;
    })[] = await this.dataSource.query(
      `SELECT t.*, o.ids AS observation_ids, o.latency, o.total_cost, s.ids AS score_ids
       FROM (SELECT ${TRACE_COLUMNS} FROM trace t WHERE ${where} ${order}
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
        trace: toTrace(row),
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
  private async countTraces(query: TraceQuery, where: string, params: unknown[]): Promise<number> {
    const rollupable =
      query.sessionId === undefined &&
      query.version === undefined &&
      query.release === undefined &&
      !query.environments?.length &&
      query.userId !== '' &&
      query.name !== '';
    if (!rollupable) {
      const [{ count }] = await this.dataSource.query<{ count: number }[]>(
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
      const [{ count }] = await this.dataSource.query<{ count: number }[]>(
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
    const [{ count }] = await this.dataSource.query<{ count: string | null }[]>(
      `SELECT sum(count_traces)::bigint AS count FROM daily_trace_rollup
       WHERE project_id = $1 ${bounds.join(' ')} ${f}`,
      p,
    );
    total += Number(count ?? 0);
    if (query.fromTimestamp && from < start) total += await rawCount(from, start);
    if (query.toTimestamp && end < to) total += await rawCount(end, to);
    return total;
  }

  async getTrace(projectId: number, traceId: string): Promise<TraceDetail | null> {
    const traces: TraceRow[] = await this.dataSource.query(
      `SELECT ${TRACE_COLUMNS} FROM trace t WHERE t.project_id = $1 AND t.id = $2`,
      [projectId, traceId],
    );
    if (traces.length === 0) return null;
    const [observations, scores] = await Promise.all([
      this.dataSource.query<ObservationRow[]>(
        `SELECT * FROM observation WHERE project_id = $1 AND trace_id = $2 ORDER BY start_time, id`,
        [projectId, traceId],
      ),
      this.dataSource.query<ScoreRow[]>(
        `SELECT * FROM score WHERE project_id = $1 AND trace_id = $2 AND data_type <> 'CORRECTION'
         ORDER BY timestamp, id`,
        [projectId, traceId],
      ),
    ]);
    const obs = observations.map(toObservation);
    return {
      trace: toTrace(traces[0]),
      observations: obs,
      scores: scores.map(toScore),
      latency: latencyOf(obs),
      totalCost: obs.reduce((sum, o) => sum + (o.totalCost ?? 0), 0),
    };
  }

  async dailyMetrics(query: DailyMetricsQuery): Promise<DailyMetricsDay[]> {
    const from = query.fromTimestamp.getTime();
    const to = query.toTimestamp.getTime();
    if (!(from < to)) return [];
    const start = Math.ceil(from / DAY_MS) * DAY_MS;
    const end = Math.floor(to / DAY_MS) * DAY_MS;
    const parts: Promise<DayParts>[] = [];
    if (start >= end) {
      parts.push(this.rawDays(query, from, to));
    } else {
      parts.push(this.rollupDays(query, start, end));
      if (from < start) parts.push(this.rawDays(query, from, start));
      if (end < to) parts.push(this.rawDays(query, end, to));
    }
    const merged: DayParts = new Map();
    for (const part of await Promise.all(parts)) {
      for (const [day, value] of part) merged.set(day, value); // parts cover disjoint days
    }
    return [...merged.entries()]
      .map(([date, v]) => toDay(date, v))
      .filter((d) => d.countTraces > 0 || d.countObservations > 0)
      .sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  }

  /** Whole UTC days `[start, end)` from the rollup tables. */
  private async rollupDays(query: DailyMetricsQuery, start: number, end: number) {
    const params: unknown[] = [query.projectId, isoDay(start), isoDay(end)];
    const filters = rollupFilters(query, params);
    const [traces, usage] = await Promise.all([
      this.dataSource.query<{ day: string; count_traces: string }[]>(
        `SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(count_traces)::bigint AS count_traces
         FROM daily_trace_rollup
         WHERE project_id = $1 AND day >= $2::date AND day < $3::date ${filters}
         GROUP BY day HAVING sum(count_traces) <> 0`,
        params,
      ),
      this.dataSource.query<UsageRow[]>(
        `SELECT to_char(day, 'YYYY-MM-DD') AS day, model,
                sum(count_observations)::bigint AS count_observations,
                sum(count_traces)::bigint AS count_traces,
                sum(input_usage)::bigint AS input_usage, sum(output_usage)::bigint AS output_usage,
                sum(total_usage)::bigint AS total_usage, sum(total_cost) AS total_cost
         FROM daily_usage_rollup
         WHERE project_id = $1 AND day >= $2::date AND day < $3::date ${filters}
         GROUP BY day, model HAVING sum(count_observations) <> 0`,
        params,
      ),
    ]);
    return dayParts(traces, usage);
  }

  /** A partial range `[from, to)` computed exactly from the base tables. */
  private async rawDays(query: DailyMetricsQuery, from: number, to: number) {
    const params: unknown[] = [query.projectId, new Date(from), new Date(to)];
    const filters = rawTraceFilters(query, params);
    const [traces, usage] = await Promise.all([
      this.dataSource.query<{ day: string; count_traces: string }[]>(
        `SELECT to_char((t.timestamp AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day,
                count(*)::bigint AS count_traces
         FROM trace t
         WHERE t.project_id = $1 AND t.timestamp >= $2 AND t.timestamp < $3 ${filters}
         GROUP BY 1`,
        params,
      ),
      this.dataSource.query<UsageRow[]>(
        `SELECT to_char((o.start_time AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day,
                coalesce(o.model, '') AS model,
                count(*)::bigint AS count_observations,
                count(DISTINCT o.trace_id)::bigint AS count_traces,
                sum(o.input_usage)::bigint AS input_usage,
                sum(o.output_usage)::bigint AS output_usage,
                sum(o.total_usage)::bigint AS total_usage,
                coalesce(sum(o.total_cost), 0) AS total_cost
         FROM observation o
         WHERE o.project_id = $1 AND o.start_time >= $2 AND o.start_time < $3
         ${filters ? `AND o.trace_id IN (SELECT t.id FROM trace t WHERE t.project_id = $1 ${filters})` : ''}
         GROUP BY 1, 2`,
        params,
      ),
    ]);
    return dayParts(traces, usage);
  }

  async listModelPrices(): Promise<ModelPriceRecord[]> {
    const rows: {
      id: string;
      project_id: number | null;
      model_name: string;
      match_pattern: string;
      start_date: Date | null;
      unit: string;
      prices: Record<string, number>;
    }[] = await this.dataSource.query(`SELECT * FROM model_price`);
    return rows.map((r) => ({
      id: r.id,
      projectId: r.project_id,
      modelName: r.model_name,
      matchPattern: r.match_pattern,
      startDate: r.start_date,
      unit: r.unit,
      prices: r.prices,
    }));
  }

  async forgetEventsOlderThan(hours: number): Promise<number> {
    const [, count] = await this.dataSource.query<[unknown, number]>(
      `DELETE FROM ingestion_event WHERE seen_at < now() - make_interval(hours => $1)`,
      [hours],
    );
    return count;
  }

  async purgeProjectData(projectId: number, limit: number): Promise<number> {
    let total = 0;
    for (const table of PURGE_TABLES) {
      const rows: { n: number }[] = await this.dataSource.query(
        `WITH gone AS (
           DELETE FROM ${table} WHERE ctid IN (
             SELECT ctid FROM ${table} WHERE project_id = $1 LIMIT $2)
           RETURNING 1)
         SELECT count(*)::int AS n FROM gone`,
        [projectId, limit],
      );
      total += rows[0].n;
      if (rows[0].n >= limit) return total; // more next round
    }
    return total;
  }
}

const PURGE_TABLES = [
  'observation',
  'score',
  'trace',
  'daily_usage_rollup',
  'daily_trace_rollup',
  'ingestion_event',
  'model_price',
] as const;

/** The write side of one ingestion transaction. */
class PostgresUnitOfWork implements IngestionUnitOfWork {
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
      await this.manager.query(ROLLUP_SQL, [projectId, [...new Set(ids)].map(clean)]);
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

const ROLLUP_SQL = `
WITH affected AS (
  SELECT t.id, t.timestamp, coalesce(t.name, '') AS trace_name, coalesce(t.user_id, '') AS user_id,
         t.tags, t.rollup
  FROM trace t WHERE t.project_id = $1 AND t.id = ANY($2::text[])
),
new_usage AS (
  SELECT o.trace_id, (o.start_time AT TIME ZONE 'UTC')::date AS day, coalesce(o.model, '') AS model,
         count(*)::bigint AS n, sum(o.input_usage)::bigint AS i, sum(o.output_usage)::bigint AS o,
         sum(o.total_usage)::bigint AS t, coalesce(sum(o.total_cost), 0)::numeric AS c
  FROM observation o WHERE o.project_id = $1 AND o.trace_id = ANY($2::text[])
  GROUP BY 1, 2, 3
),
new_rollup AS (
  SELECT a.id, jsonb_build_object(
    'day', (a.timestamp AT TIME ZONE 'UTC')::date, 'name', a.trace_name, 'user', a.user_id,
    'tags', to_jsonb(a.tags),
    'usage', coalesce((SELECT jsonb_agg(jsonb_build_object('day', u.day, 'model', u.model,
        'n', u.n, 'i', u.i, 'o', u.o, 't', u.t, 'c', u.c)) FROM new_usage u WHERE u.trace_id = a.id),
      '[]'::jsonb)) AS rollup
  FROM affected a
),
old AS (
  SELECT a.id, (a.rollup->>'day')::date AS day, a.rollup->>'name' AS trace_name,
         a.rollup->>'user' AS user_id,
         ARRAY(SELECT jsonb_array_elements_text(a.rollup->'tags')) AS tags, a.rollup
  FROM affected a WHERE a.rollup IS NOT NULL
),
trace_delta AS (
  SELECT day, trace_name, user_id, tags, sum(cnt)::bigint AS cnt FROM (
    SELECT (a.timestamp AT TIME ZONE 'UTC')::date AS day, a.trace_name, a.user_id, a.tags, 1 AS cnt
    FROM affected a
    UNION ALL
    SELECT day, trace_name, user_id, tags, -1 FROM old
  ) x GROUP BY 1, 2, 3, 4 HAVING sum(cnt) <> 0
),
usage_delta AS (
  SELECT day, trace_name, user_id, tags, model, sum(n)::bigint AS n, sum(tr)::bigint AS tr,
         sum(i)::bigint AS i, sum(o)::bigint AS o, sum(t)::bigint AS t, sum(c) AS c FROM (
    SELECT u.day, a.trace_name, a.user_id, a.tags, u.model, u.n, 1 AS tr, u.i, u.o, u.t, u.c
    FROM new_usage u JOIN affected a ON a.id = u.trace_id
    UNION ALL
    SELECT (e->>'day')::date, old.trace_name, old.user_id, old.tags, e->>'model',
           -(e->>'n')::bigint, -1, -(e->>'i')::bigint, -(e->>'o')::bigint, -(e->>'t')::bigint,
           -(e->>'c')::numeric
    FROM old CROSS JOIN LATERAL jsonb_array_elements(old.rollup->'usage') e
  ) x GROUP BY 1, 2, 3, 4, 5
  HAVING sum(n) <> 0 OR sum(tr) <> 0 OR sum(i) <> 0 OR sum(o) <> 0 OR sum(t) <> 0 OR sum(c) <> 0
),
ins_traces AS (
  INSERT INTO daily_trace_rollup AS r (project_id, day, trace_name, user_id, tags, count_traces)
  SELECT $1, day, trace_name, user_id, tags, cnt FROM trace_delta
  ORDER BY day, trace_name, user_id, tags
  ON CONFLICT (project_id, day, trace_name, user_id, tags)
  DO UPDATE SET count_traces = r.count_traces + excluded.count_traces
  RETURNING 1
),
ins_usage AS (
  INSERT INTO daily_usage_rollup AS r (project_id, day, trace_name, user_id, tags, model,
    count_observations, count_traces, input_usage, output_usage, total_usage, total_cost)
  SELECT $1, day, trace_name, user_id, tags, model, n, tr, i, o, t, c FROM usage_delta
  ORDER BY day, trace_name, user_id, tags, model
  ON CONFLICT (project_id, day, trace_name, user_id, tags, model) DO UPDATE SET
    count_observations = r.count_observations + excluded.count_observations,
    count_traces = r.count_traces + excluded.count_traces,
    input_usage = r.input_usage + excluded.input_usage,
    output_usage = r.output_usage + excluded.output_usage,
    total_usage = r.total_usage + excluded.total_usage,
    total_cost = r.total_cost + excluded.total_cost
  RETURNING 1
),
upd AS (
  UPDATE trace t SET rollup = nr.rollup FROM new_rollup nr
  WHERE t.project_id = $1 AND t.id = nr.id
  RETURNING 1
)
SELECT (SELECT count(*) FROM ins_traces) AS traces, (SELECT count(*) FROM ins_usage) AS usage,
       (SELECT count(*) FROM upd) AS updated`;

// ---------------------------------------------------------------------------------------------
// Rows ↔ records

const TRACE_COLUMNS = `t.project_id, t.id, t.timestamp, t.name, t.user_id, t.session_id, t.release,
  t.version, t.input, t.output, t.metadata, t.tags, t.public, t.environment, t.implicit,
  t.created_at, t.updated_at`;

const TRACE_WRITE_COLUMNS = [
  'project_id',
  'id',
  'timestamp',
  'name',
  'user_id',
  'session_id',
  'release',
  'version',
  'input',
  'output',
  'metadata',
  'tags',
  'public',
  'environment',
  'implicit',
  'created_at',
  'updated_at',
] as const;

const OBSERVATION_WRITE_COLUMNS = [
  'project_id',
  'id',
  'trace_id',
  'parent_observation_id',
  'type',
  'name',
  'start_time',
  'end_time',
  'completion_start_time',
  'model',
  'model_parameters',
  'input',
  'output',
  'metadata',
  'level',
  'status_message',
  'version',
  'environment',
  'prompt_name',
  'prompt_version',
  'usage_details',
  'cost_details',
  'provided_usage_details',
  'provided_cost_details',
  'input_usage',
  'output_usage',
  'total_usage',
  'total_cost',
  'model_id',
  'input_price',
  'output_price',
  'total_price',
  'unit',
  'implicit',
  'created_at',
  'updated_at',
] as const;

const SCORE_WRITE_COLUMNS = [
  'project_id',
  'id',
  'trace_id',
  'observation_id',
  'session_id',
  'dataset_run_id',
  'name',
  'value',
  'string_value',
  'data_type',
  'source',
  'comment',
  'metadata',
  'config_id',
  'queue_id',
  'environment',
  'timestamp',
  'created_at',
  'updated_at',
] as const;

interface TraceRow {
  project_id: number;
  id: string;
  timestamp: Date;
  name: string | null;
  user_id: string | null;
  session_id: string | null;
  release: string | null;
  version: string | null;
  input: unknown;
  output: unknown;
  metadata: unknown;
  tags: string[];
  public: boolean;
  environment: string;
  implicit: boolean;
  created_at: Date;
  updated_at: Date;
}

interface ObservationRow {
  project_id: number;
  id: string;
  trace_id: string;
  parent_observation_id: string | null;
  type: string;
  name: string | null;
  start_time: Date;
  end_time: Date | null;
  completion_start_time: Date | null;
  model: string | null;
  model_parameters: unknown;
  input: unknown;
  output: unknown;
  metadata: unknown;
  level: string;
  status_message: string | null;
  version: string | null;
  environment: string;
  prompt_name: string | null;
  prompt_version: number | null;
  usage_details: Record<string, number>;
  cost_details: Record<string, number>;
  provided_usage_details: Record<string, number>;
  provided_cost_details: Record<string, number>;
  total_cost: string | null;
  model_id: string | null;
  input_price: number | null;
  output_price: number | null;
  total_price: number | null;
  unit: string | null;
  implicit: boolean;
  created_at: Date;
  updated_at: Date;
}

interface ScoreRow {
  project_id: number;
  id: string;
  trace_id: string | null;
  observation_id: string | null;
  session_id: string | null;
  dataset_run_id: string | null;
  name: string;
  value: number | null;
  string_value: string | null;
  data_type: string;
  source: string;
  comment: string | null;
  metadata: unknown;
  config_id: string | null;
  queue_id: string | null;
  environment: string;
  timestamp: Date;
  created_at: Date;
  updated_at: Date;
}

function toTrace(row: TraceRow): TraceRecord {
  return {
    projectId: row.project_id,
    id: row.id,
    timestamp: row.timestamp,
    name: row.name,
    userId: row.user_id,
    sessionId: row.session_id,
    release: row.release,
    version: row.version,
    input: row.input,
    output: row.output,
    metadata: row.metadata,
    tags: row.tags ?? [],
    public: row.public,
    environment: row.environment,
    implicit: row.implicit,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function fromTrace(r: TraceRecord): Record<(typeof TRACE_WRITE_COLUMNS)[number], unknown> {
  return {
    project_id: r.projectId,
    id: r.id,
    timestamp: r.timestamp.toISOString(),
    name: r.name,
    user_id: r.userId,
    session_id: r.sessionId,
    release: r.release,
    version: r.version,
    input: json(r.input),
    output: json(r.output),
    metadata: json(r.metadata),
    tags: r.tags,
    public: r.public,
    environment: r.environment,
    implicit: r.implicit,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

function toObservation(row: ObservationRow): ObservationRecord {
  return {
    projectId: row.project_id,
    id: row.id,
    traceId: row.trace_id,
    parentObservationId: row.parent_observation_id,
    type: row.type as ObservationType,
    name: row.name,
    startTime: row.start_time,
    endTime: row.end_time,
    completionStartTime: row.completion_start_time,
    model: row.model,
    modelParameters: row.model_parameters,
    input: row.input,
    output: row.output,
    metadata: row.metadata,
    level: row.level as ObservationLevel,
    statusMessage: row.status_message,
    version: row.version,
    environment: row.environment,
    promptName: row.prompt_name,
    promptVersion: row.prompt_version,
    usageDetails: row.usage_details ?? {},
    costDetails: numbers(row.cost_details),
    providedUsageDetails: row.provided_usage_details ?? {},
    providedCostDetails: numbers(row.provided_cost_details),
    totalCost: row.total_cost === null ? null : Number(row.total_cost),
    modelId: row.model_id,
    inputPrice: row.input_price,
    outputPrice: row.output_price,
    totalPrice: row.total_price,
    unit: row.unit,
    implicit: row.implicit,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function fromObservation(
  r: ObservationRecord,
): Record<(typeof OBSERVATION_WRITE_COLUMNS)[number], unknown> {
  return {
    project_id: r.projectId,
    id: r.id,
    trace_id: r.traceId,
    parent_observation_id: r.parentObservationId,
    type: r.type,
    name: r.name,
    start_time: r.startTime.toISOString(),
    end_time: r.endTime?.toISOString() ?? null,
    completion_start_time: r.completionStartTime?.toISOString() ?? null,
    model: r.model,
    model_parameters: json(r.modelParameters),
    input: json(r.input),
    output: json(r.output),
    metadata: json(r.metadata),
    level: r.level,
    status_message: r.statusMessage,
    version: r.version,
    environment: r.environment,
    prompt_name: r.promptName,
    prompt_version: r.promptVersion,
    usage_details: r.usageDetails,
    cost_details: r.costDetails,
    provided_usage_details: r.providedUsageDetails,
    provided_cost_details: r.providedCostDetails,
    input_usage: sumMatching(r.usageDetails, 'input'),
    output_usage: sumMatching(r.usageDetails, 'output'),
    total_usage: r.usageDetails['total'] ?? 0,
    total_cost: r.totalCost,
    model_id: r.modelId,
    input_price: r.inputPrice,
    output_price: r.outputPrice,
    total_price: r.totalPrice,
    unit: r.unit,
    implicit: r.implicit,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

function toScore(row: ScoreRow): ScoreRecord {
  return {
    projectId: row.project_id,
    id: row.id,
    traceId: row.trace_id,
    observationId: row.observation_id,
    sessionId: row.session_id,
    datasetRunId: row.dataset_run_id,
    name: row.name,
    value: row.value,
    stringValue: row.string_value,
    dataType: row.data_type as ScoreDataType,
    source: row.source as ScoreSource,
    comment: row.comment,
    metadata: row.metadata,
    configId: row.config_id,
    queueId: row.queue_id,
    environment: row.environment,
    timestamp: row.timestamp,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function fromScore(r: ScoreRecord): Record<(typeof SCORE_WRITE_COLUMNS)[number], unknown> {
  return {
    project_id: r.projectId,
    id: r.id,
    trace_id: r.traceId,
    observation_id: r.observationId,
    session_id: r.sessionId,
    dataset_run_id: r.datasetRunId,
    name: r.name,
    value: r.value,
    string_value: r.stringValue,
    data_type: r.dataType,
    source: r.source,
    comment: r.comment,
    metadata: json(r.metadata),
    config_id: r.configId,
    queue_id: r.queueId,
    environment: r.environment,
    timestamp: r.timestamp.toISOString(),
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

// ---------------------------------------------------------------------------------------------
// Query helpers

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

function rollupFilters(query: DailyMetricsQuery, params: unknown[]): string {
  const clauses: string[] = [];
  if (query.traceName !== undefined) {
    params.push(query.traceName);
    clauses.push(`trace_name = $${params.length}`);
  }
  if (query.userId !== undefined) {
    params.push(query.userId);
    clauses.push(`user_id = $${params.length}`);
  }
  if (query.tags?.length) {
    params.push(query.tags);
    clauses.push(`tags @> $${params.length}::text[]`);
  }
  return clauses.map((c) => `AND ${c}`).join(' ');
}

function rawTraceFilters(query: DailyMetricsQuery, params: unknown[]): string {
  const clauses: string[] = [];
  // '' stands for null in the rollup keys; other values compare directly, so indexes apply.
  const equals = (column: string, value: string) => {
    params.push(value);
    clauses.push(
      value === ''
        ? `coalesce(${column}, '') = $${params.length}`
        : `${column} = $${params.length}`,
    );
  };
  if (query.traceName !== undefined) equals('t.name', query.traceName);
  if (query.userId !== undefined) equals('t.user_id', query.userId);
  if (query.tags?.length) {
    params.push(query.tags);
    clauses.push(`t.tags @> $${params.length}::text[]`);
  }
  return clauses.map((c) => `AND ${c}`).join(' ');
}

interface UsageRow {
  day: string;
  model: string;
  count_observations: string;
  count_traces: string;
  input_usage: string;
  output_usage: string;
  total_usage: string;
  total_cost: string;
}

type DayParts = Map<string, { countTraces: number; usage: ModelUsage[] }>;

function dayParts(traces: { day: string; count_traces: string }[], usage: UsageRow[]): DayParts {
  const days: DayParts = new Map();
  const get = (day: string) => {
    let d = days.get(day);
    if (!d) days.set(day, (d = { countTraces: 0, usage: [] }));
    return d;
  };
  for (const t of traces) get(t.day).countTraces = Number(t.count_traces);
  for (const u of usage) {
    if (Number(u.count_observations) === 0) continue;
    get(u.day).usage.push({
      model: u.model === '' ? null : u.model,
      inputUsage: Number(u.input_usage),
      outputUsage: Number(u.output_usage),
      totalUsage: Number(u.total_usage),
      countTraces: Number(u.count_traces),
      countObservations: Number(u.count_observations),
      totalCost: Number(u.total_cost),
    });
  }
  return days;
}

function toDay(date: string, v: { countTraces: number; usage: ModelUsage[] }): DailyMetricsDay {
  const usage = [...v.usage].sort((a, b) =>
    a.model === b.model
      ? 0
      : a.model === null
        ? 1
        : b.model === null
          ? -1
          : a.model < b.model
            ? -1
            : 1,
  );
  return {
    date,
    countTraces: v.countTraces,
    countObservations: usage.reduce((s, u) => s + u.countObservations, 0),
    totalCost: usage.reduce((s, u) => s + u.totalCost, 0),
    usage,
  };
}

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
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

function sumMatching(details: Record<string, number>, needle: string): number {
  let sum = 0;
  for (const [key, value] of Object.entries(details)) {
    if (key.toLowerCase().includes(needle)) sum += value;
  }
  return sum;
}

function numbers(record: Record<string, unknown> | null): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(record ?? {})) out[k] = Number(v);
  return out;
}

/** JSON values go into jsonb columns as they are; undefined becomes SQL NULL. */
function json(value: unknown): unknown {
  return value === undefined ? null : value;
}

/** PostgreSQL text cannot hold NUL. */
function clean(value: string): string {
  return value.includes('\u0000') ? value.split('\u0000').join('') : value;
}

function quote(column: string): string {
  return `"${column}"`;
}

function keyArrays(keys: EntityKey[]): [number[], string[]] {
  return [keys.map((k) => k.projectId), keys.map((k) => clean(k.id))];
}

/** A 64-bit advisory lock id for one entity. */
function lockId(kind: string, key: EntityKey): string {
  const digest = createHash('sha1').update(`${kind}:${key.projectId}:${key.id}`).digest();
  return digest.readBigInt64BE(0).toString();
}
