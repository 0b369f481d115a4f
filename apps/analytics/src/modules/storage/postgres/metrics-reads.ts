import type { DataSource } from 'typeorm';
import type { DailyMetricsDay, DailyMetricsQuery, ModelUsage } from '../records.js';
import { DAY_MS, isoDay, rawTraceFilters, rollupFilters } from './rollup-filters.js';

/**
 * Daily metrics of the PostgreSQL store (docs/analytics.md § Storage and the daily rollup):
 * whole UTC days come from the rollup maintained on ingest, the partial days at the edges of a
 * time range from the base tables, so the answer is exact for any `[from, to)`.
 */

/** UTC days with data in `[from, to)`, newest first, with per-model usage. */
export async function dailyMetrics(
  db: DataSource,
  query: DailyMetricsQuery,
): Promise<DailyMetricsDay[]> {
  const from = query.fromTimestamp.getTime();
  const to = query.toTimestamp.getTime();
  if (!(from < to)) return [];
  const start = Math.ceil(from / DAY_MS) * DAY_MS;
  const end = Math.floor(to / DAY_MS) * DAY_MS;
  const parts: Promise<DayParts>[] = [];
  if (start >= end) {
    parts.push(rawDays(db, query, from, to));
  } else {
    parts.push(rollupDays(db, query, start, end));
    if (from < start) parts.push(rawDays(db, query, from, start));
    if (end < to) parts.push(rawDays(db, query, end, to));
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
async function rollupDays(db: DataSource, query: DailyMetricsQuery, start: number, end: number) {
  const params: unknown[] = [query.projectId, isoDay(start), isoDay(end)];
  const filters = rollupFilters(query, params);
  const [traces, usage] = await Promise.all([
    db.query<{ day: string; count_traces: string }[]>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(count_traces)::bigint AS count_traces
       FROM daily_trace_rollup
       WHERE project_id = $1 AND day >= $2::date AND day < $3::date ${filters}
       GROUP BY day HAVING sum(count_traces) <> 0`,
      params,
    ),
    db.query<UsageRow[]>(
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
async function rawDays(db: DataSource, query: DailyMetricsQuery, from: number, to: number) {
  const params: unknown[] = [query.projectId, new Date(from), new Date(to)];
  const filters = rawTraceFilters(query, params);
  const [traces, usage] = await Promise.all([
    db.query<{ day: string; count_traces: string }[]>(
      `SELECT to_char((t.timestamp AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day,
              count(*)::bigint AS count_traces
       FROM trace t
       WHERE t.project_id = $1 AND t.timestamp >= $2 AND t.timestamp < $3 ${filters}
       GROUP BY 1`,
      params,
    ),
    db.query<UsageRow[]>(
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
