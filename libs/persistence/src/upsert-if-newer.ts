import type { EntityManager } from 'typeorm';

/** One row of a read model fed by events, and what orders the events that write it. */
export interface NewerRow {
  /** Table name (snake_case, as in the database). */
  table: string;
  /** The conflict target: the column(s) of the primary key or a unique index. */
  key: readonly string[];
  /** Column → value of the whole row to store, key and `order` column included. */
  values: Readonly<Record<string, unknown>>;
  /**
   * The column that orders writes (an event's `occurred_at`, a version): the stored row is
   * replaced only when the incoming value is not older. A stored NULL (a row seeded without an
   * event) is always replaced.
   */
  order: string;
  /**
   * Whether an equal order value replaces the stored row: `apply` (the default; a redelivery of
   * the same event rewrites the same values) or `keep` (versions: only a strictly newer one).
   */
  ties?: 'apply' | 'keep';
  /** Columns the insert sets but a newer event must not overwrite (e.g. state of other events). */
  insertOnly?: readonly string[];
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

function identifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`upsertIfNewer: not a plain identifier: ${name}`);
  return `"${name}"`;
}

/**
 * The one rule of every event-fed read model: insert the row, or replace the stored one only
 * when the incoming event is not older than the one that wrote it, so redelivered or reordered
 * events (at-least-once delivery, docs/architecture.md § Consistency) never take a read
 * model back in time. One `INSERT … ON CONFLICT … DO UPDATE … WHERE` statement, so concurrent
 * deliveries need no lock (PostgreSQL: INSERT § ON CONFLICT Clause).
 * @returns the SQL text and its parameters (exported for tests)
 */
export function upsertIfNewerSql(row: NewerRow): { text: string; values: unknown[] } {
  const columns = Object.keys(row.values);
  for (const required of [...row.key, row.order]) {
    if (!columns.includes(required)) {
      throw new Error(`upsertIfNewer: values lack the column ${required}`);
    }
  }
  const table = identifier(row.table);
  const order = identifier(row.order);
  const keep = new Set([...row.key, ...(row.insertOnly ?? [])]);
  const updates = columns
    .filter((c) => !keep.has(c))
    .map((c) => `${identifier(c)} = EXCLUDED.${identifier(c)}`);
  const comparison = (row.ties ?? 'apply') === 'apply' ? '<=' : '<';
  const text =
    `INSERT INTO ${table} (${columns.map(identifier).join(', ')}) ` +
    `VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')}) ` +
    `ON CONFLICT (${row.key.map(identifier).join(', ')}) DO UPDATE SET ${updates.join(', ')} ` +
    `WHERE ${table}.${order} IS NULL OR ${table}.${order} ${comparison} EXCLUDED.${order} ` +
    'RETURNING 1 AS applied';
  return { text, values: columns.map((c) => row.values[c]) };
}

/**
 * Stores `row` unless the table already holds a newer write of it ({@link upsertIfNewerSql}),
 * in the caller's transaction.
 * @returns true when the row was inserted or replaced, false when a newer one was kept
 */
export async function upsertIfNewer(manager: EntityManager, row: NewerRow): Promise<boolean> {
  const { text, values } = upsertIfNewerSql(row);
  const result: unknown[] = await manager.query(text, values);
  return result.length > 0;
}
