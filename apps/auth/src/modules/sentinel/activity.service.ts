import { Injectable } from '@nestjs/common';
import { effectiveProjectRole } from '@wp/contracts';
import { NotFoundError, ValidationFailedError, pageMeta, type PageMeta } from '@wp/http';
import { PermissionFreshness } from '@wp/messaging';
import type { Principal } from '@wp/security';
import { DataSource } from 'typeorm';
import {
  SORT_COLUMNS,
  type ActivityFilterDto,
  type ActivityLogsQueryDto,
  type ActivityMetricsQueryDto,
} from './dto/activity-query.dto.js';
import { activityWindow } from './activity-window.js';
import { SentinelPassRepository, type SentinelPassRow } from './sentinel-pass.repository.js';

/** One activity log entry as the endpoints show it. */
export interface ActivityLogEntry {
  id: string;
  agent_user_id: string;
  timestamp: string;
  activity_type: string;
  service: string;
  endpoint: string;
  method: string;
  status_code: number;
  latency_ms: number;
  success: boolean;
  client_address: string | null;
  error_message: string | null;
}

export const ENTRY_FIELDS: (keyof ActivityLogEntry)[] = [
  'id',
  'agent_user_id',
  'timestamp',
  'activity_type',
  'service',
  'endpoint',
  'method',
  'status_code',
  'latency_ms',
  'success',
  'client_address',
  'error_message',
];

export interface MetricPoint {
  timestamp: string;
  request_count: number;
  error_count: number;
  success_rate: number;
  token_generations: number;
  p50_latency_ms: number;
  p95_latency_ms: number;
}

const COLUMNS = `id, agent_user_id, occurred_at, occurred_at::text AS cursor_at, activity_type,
  service, endpoint, method, status_code, latency_ms, success, client_address, error_message`;
const EXPORT_BATCH = 1000;
const MAX_BUCKETS = 2000;
/** Default metrics window ending now, per `group_by`. */
const DEFAULT_WINDOW_MS = { hour: 24 * 3600e3, day: 30 * 86400e3, week: 12 * 7 * 86400e3 };

type Row = Record<string, unknown>;

/**
 * The activity endpoints on {auth_url}: paged logs, streamed export (keyset batches, constant
 * memory) and time-bucketed metrics of one Sentinel Pass, readable only by members of its
 * project; anyone else gets 404, as for an unknown pass.
 */
@Injectable()
export class ActivityService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly passes: SentinelPassRepository,
    private readonly freshness: PermissionFreshness,
  ) {}

  /**
   * The pass, if the caller may read its activity ("members of the pass's project": an effective
   * project role, i.e. organization OWNER/ADMIN or a project member not denied), decided with
   * roles confirmed current (`PermissionFreshness`, docs/architecture.md § Withdrawn permissions
   * at once).
   * @throws NotFoundError 404 otherwise (never reveals a pass); DomainError 503 `UNAVAILABLE`
   *   when the caller's current roles cannot be confirmed
   */
  async readablePass(principal: Principal, passId: string): Promise<SentinelPassRow> {
    const pass = principal.type === 'user' ? await this.passes.findPass(passId) : null;
    if (!pass || !(await this.mayRead(principal.id, pass))) {
      throw new NotFoundError('Sentinel Pass', 'No Sentinel Pass with this id is visible to you.');
    }
    return pass;
  }

  private async mayRead(userId: string, pass: SentinelPassRow): Promise<boolean> {
    const standing = await this.passes.standingOf(userId, pass);
    // No role in the read model: nothing to withdraw (a grant may arrive with its event).
    if (!standing.organizationRole && !standing.projectRole) return false;
    const roles = await this.freshness.confirm(
      userId,
      pass.organizationId,
      pass.projectId,
      standing,
    );
    return !roles.projectDeleted && effectiveProjectRole(roles) !== null;
  }

  async logs(query: ActivityLogsQueryDto): Promise<{ data: ActivityLogEntry[]; meta: PageMeta }> {
    const page = query.page ?? 1;
    const perPage = query.per_page ?? 25;
    const { where, params } = filterSql(query);
    const direction = query.sort_order === 'asc' ? 'ASC' : 'DESC';
    const column = SORT_COLUMNS[query.sort_by ?? 'timestamp'];
    const [count] = await this.dataSource.query<{ n: string }[]>(
      `SELECT count(*) AS n FROM agent_activity WHERE ${where}`,
      params,
    );
    const rows = await this.dataSource.query<Row[]>(
      `SELECT ${COLUMNS} FROM agent_activity WHERE ${where}
       ORDER BY ${column} ${direction}, occurred_at ${direction}, id ${direction}
       LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`,
      params,
    );
    return { data: rows.map(toEntry), meta: pageMeta(page, perPage, Number(count.n)) };
  }

  /**
   * Every matching entry in timestamp order (`sort_order`), read in keyset batches of 1000 so
   * memory stays constant whatever the count.
   */
  async *exportEntries(query: ActivityFilterDto): AsyncGenerator<ActivityLogEntry> {
    const { where, params } = filterSql(query);
    const asc = query.sort_order === 'asc';
    let cursor: { at: string; id: string } | null = null;
    for (;;) {
      const keyset: string = cursor
        ? `AND (occurred_at, id) ${asc ? '>' : '<'} ($${params.length + 1}::timestamptz, $${params.length + 2}::uuid)`
        : '';
      const rows: Row[] = await this.dataSource.query<Row[]>(
        `SELECT ${COLUMNS} FROM agent_activity WHERE ${where} ${keyset}
         ORDER BY occurred_at ${asc ? 'ASC' : 'DESC'}, id ${asc ? 'ASC' : 'DESC'}
         LIMIT ${EXPORT_BATCH}`,
        cursor ? [...params, cursor.at, cursor.id] : params,
      );
      for (const row of rows) yield toEntry(row);
      if (rows.length < EXPORT_BATCH) return;
      const last = rows[rows.length - 1];
      cursor = { at: last['cursor_at'] as string, id: last['id'] as string };
    }
  }

  async metrics(query: ActivityMetricsQueryDto): Promise<{
    data: MetricPoint[];
    meta: { period: { start_date: string; end_date: string; group_by: string } };
  }> {
    const groupBy = query.group_by ?? 'day';
    const window = activityWindow(query);
    // The last instant inside the window (a calendar-date end_date runs to 23:59:59.999Z).
    const end = window.end
      ? new Date(window.end.getTime() - (window.endExclusive ? 1 : 0))
      : new Date();
    const start = window.start ?? new Date(end.getTime() - DEFAULT_WINDOW_MS[groupBy]);
    if (start.getTime() > end.getTime()) {
      throw ValidationFailedError.at(
        { parameter: 'start_date' },
        'start_date must not be after end_date.',
      );
    }
    const unit = { hour: 3600e3, day: 86400e3, week: 7 * 86400e3 }[groupBy];
    if ((end.getTime() - start.getTime()) / unit > MAX_BUCKETS) {
      throw ValidationFailedError.at(
        { parameter: 'group_by' },
        `The period spans more than ${MAX_BUCKETS} ${groupBy} buckets; narrow it or group coarser.`,
      );
    }
    const upperOp = window.end && window.endExclusive ? '<' : '<=';
    const rows = await this.dataSource.query<Row[]>(
      `WITH buckets AS (
         SELECT generate_series(date_trunc($1, $2::timestamptz AT TIME ZONE 'UTC'),
                                date_trunc($1, $3::timestamptz AT TIME ZONE 'UTC'),
                                ('1 ' || $1)::interval) AS bucket),
       points AS (
         SELECT date_trunc($1, occurred_at AT TIME ZONE 'UTC') AS bucket,
           count(*) FILTER (WHERE activity_type <> 'token_generation') AS requests,
           count(*) FILTER (WHERE activity_type = 'error') AS errors,
           count(*) FILTER (WHERE activity_type = 'token_generation') AS tokens,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY latency_ms)
             FILTER (WHERE activity_type <> 'token_generation') AS p50,
           percentile_cont(0.95) WITHIN GROUP (ORDER BY latency_ms)
             FILTER (WHERE activity_type <> 'token_generation') AS p95
         FROM agent_activity
         WHERE agent_user_id = $4 AND occurred_at >= $2 AND occurred_at ${upperOp} $5
         GROUP BY 1)
       SELECT to_char(b.bucket, 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS bucket,
         coalesce(p.requests, 0) AS requests, coalesce(p.errors, 0) AS errors,
         coalesce(p.tokens, 0) AS tokens, coalesce(p.p50, 0) AS p50, coalesce(p.p95, 0) AS p95
       FROM buckets b LEFT JOIN points p USING (bucket) ORDER BY b.bucket`,
      [
        groupBy,
        start.toISOString(),
        end.toISOString(),
        query.agent_user_id,
        window.end && window.endExclusive ? window.end.toISOString() : end.toISOString(),
      ],
    );
    return {
      data: rows.map((r) => {
        const requests = Number(r['requests']);
        const errors = Number(r['errors']);
        return {
          timestamp: r['bucket'] as string,
          request_count: requests,
          error_count: errors,
          success_rate: requests === 0 ? 0 : round((requests - errors) / requests, 4),
          token_generations: Number(r['tokens']),
          p50_latency_ms: round(Number(r['p50']), 3),
          p95_latency_ms: round(Number(r['p95']), 3),
        };
      }),
      meta: {
        period: { start_date: start.toISOString(), end_date: end.toISOString(), group_by: groupBy },
      },
    };
  }
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/**
 * SQL turning a stored route template into an anchored regular expression: regex
 * metacharacters escaped, each `:param` segment → `[^/]+`.
 */
const API_PREFIX = '/v1/api';
const TEMPLATE_REGEX = `('^' || regexp_replace(regexp_replace(endpoint,
  '([.+*?^$()\\[\\]{}|\\\\])', '\\\\\\1', 'g'), ':[A-Za-z_][A-Za-z0-9_]*', '[^/]+', 'g') || '$')`;

function filterSql(query: ActivityFilterDto): { where: string; params: unknown[] } {
  const window = activityWindow(query);
  const params: unknown[] = [query.agent_user_id];
  const clauses = ['agent_user_id = $1'];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    clauses.push(sql.replace('?', `$${params.length}`));
  };
  if (window.start) add('occurred_at >= ?', window.start.toISOString());
  if (window.end)
    add(`occurred_at ${window.endExclusive ? '<' : '<='} ?`, window.end.toISOString());
  if (query.activity_type) add('activity_type = ?', query.activity_type);
  if (query.endpoint !== undefined) {
    // The route template (as entries show it) or a concrete path it matches — `:param`
    // segments of a stored template stand for one path segment each — with or without the
    // `/v1/api` prefix (contract paths are relative to it). docs/auth.md § Activity endpoints.
    const path = query.endpoint.split('?')[0];
    const forms =
      path.startsWith('/') && !path.startsWith(API_PREFIX) ? [path, API_PREFIX + path] : [path];
    const refs = forms.map((form) => {
      params.push(form);
      return `$${params.length}`;
    });
    const matches = refs.map((ref) => `${ref} ~ ${TEMPLATE_REGEX}`).join(' OR ');
    clauses.push(`(endpoint IN (${refs.join(', ')}) OR ${matches})`);
  }
  if (query.success !== undefined) add('success = ?', query.success);
  return { where: clauses.join(' AND '), params };
}

function toEntry(r: Row): ActivityLogEntry {
  return {
    id: r['id'] as string,
    agent_user_id: r['agent_user_id'] as string,
    timestamp: (r['occurred_at'] as Date).toISOString(),
    activity_type: r['activity_type'] as string,
    service: r['service'] as string,
    endpoint: r['endpoint'] as string,
    method: r['method'] as string,
    status_code: r['status_code'] as number,
    latency_ms: r['latency_ms'] as number,
    success: r['success'] as boolean,
    client_address: r['client_address'] as string | null,
    error_message: r['error_message'] as string | null,
  };
}
