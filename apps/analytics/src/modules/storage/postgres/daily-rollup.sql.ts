/**
 * The statement that brings the daily rollups in line with the current state of some traces of
 * one project (docs/analytics.md § Storage and the daily rollup). Parameters: `$1` project id,
 * `$2` trace ids (`text[]`).
 *
 * It recomputes what each trace contributes (its trace count on its day, the usage of its
 * observations per day and model), subtracts what it contributed before (kept in
 * `trace.rollup`), adds the difference to `daily_trace_rollup` and `daily_usage_rollup` with exact
 * numeric arithmetic, and remembers the new contribution in `trace.rollup`. Rollup rows are
 * written in key order, so concurrent writers cannot deadlock on them.
 */
export const REFRESH_ROLLUPS_SQL = `
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
