import { column, table } from './columns.js';
import { entitySchemaOf } from './entity-schema.js';

/**
 * A Langfuse trace (`commons.yml` Trace): the one description of the `trace` table and of
 * `TraceRecord` (see `columns.ts`).
 */
export const TRACE_TABLE = table(
  'trace',
  {
    projectId: column.integer().primary(),
    id: column.text().primary(),
    timestamp: column.timestamp(),
    name: column.text().nullable(),
    userId: column.text().nullable(),
    sessionId: column.text().nullable(),
    release: column.text().nullable(),
    version: column.text().nullable(),
    input: column.json().nullable(),
    output: column.json().nullable(),
    metadata: column.json().nullable(),
    /** Sorted, unique. */
    tags: column.textArray().default(() => "'{}'"),
    public: column.boolean().default(false),
    // jscpd:ignore-start: each table declares its own bookkeeping columns (implicit, createdAt, updatedAt).
    environment: column.text().default('default'),
    /**
     * True while the trace exists only because an observation referenced it: its timestamp and
     * environment may still be set by the first trace-create (afterwards they are immutable).
     */
    implicit: column.boolean().default(false),
    createdAt: column.timestamp().default(() => 'now()'),
    updatedAt: column.timestamp().default(() => 'now()'),
    // jscpd:ignore-end
  },
  {
    /**
     * What the trace last contributed to the daily rollups, so a change is applied as a delta
     * (`postgres/daily-rollup.sql.ts`); written by that statement only.
     */
    rollup: { column: column.json().nullable() },
  },
);

export const TraceEntity = entitySchemaOf(TRACE_TABLE, [
  /** Also serves the default order (timestamp, id) without a sort. */
  { name: 'trace_project_timestamp_idx', columns: ['projectId', 'timestamp', 'id'] },
  { name: 'trace_project_user_idx', columns: ['projectId', 'userId', 'timestamp'] },
  { name: 'trace_project_name_idx', columns: ['projectId', 'name', 'timestamp'] },
  { name: 'trace_project_session_idx', columns: ['projectId', 'sessionId', 'timestamp'] },
  { name: 'trace_project_release_idx', columns: ['projectId', 'release', 'timestamp'] },
  { name: 'trace_project_version_idx', columns: ['projectId', 'version', 'timestamp'] },
  { name: 'trace_project_environment_idx', columns: ['projectId', 'environment', 'timestamp'] },
  /** GIN over tags (`tags @> $1`), created by hand in the migration: TypeORM cannot declare it. */
  { name: 'trace_tags_gin_idx', synchronize: false },
]);
