import type { DailyMetricsQuery } from '../records.js';

/** Milliseconds in a UTC day. */
export const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of the UTC day starting at `ms`. */
export function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * `AND …` clauses of the daily metrics filters on the rollup tables (their keys: trace name,
 * user id, tag set; `''` stands for null), appending the values to `params`.
 */
export function rollupFilters(query: DailyMetricsQuery, params: unknown[]): string {
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

/**
 * The same filters on `trace t` (the base table, for the partial days at the edges of a range),
 * appending the values to `params`.
 */
export function rawTraceFilters(query: DailyMetricsQuery, params: unknown[]): string {
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
