import type { Pool, QueryResultRow } from 'pg';
import type { DataSource } from 'typeorm';

/**
 * A named prepared statement run on the pg pool behind TypeORM's `DataSource`, for the hot
 * paths (refresh rotation, login): PostgreSQL parses and plans it once per connection instead of
 * on every call (TypeORM's `query()` sends unnamed statements), and the call skips TypeORM's
 * query runner. `name` must be unique per SQL text (pg refuses a name reused with another text).
 * Runs outside any transaction; for work inside one, use the transaction's `EntityManager`.
 * @returns the result rows
 */
export async function preparedQuery<T extends QueryResultRow>(
  dataSource: DataSource,
  statement: PreparedStatement,
  values: unknown[],
): Promise<T[]> {
  const pool = (dataSource.driver as unknown as { master: Pool }).master;
  const result = await pool.query<T>({ name: statement.name, text: statement.text, values });
  return result.rows;
}

export interface PreparedStatement {
  /** Unique statement name, e.g. `auth_refresh_rotate`. */
  name: string;
  text: string;
}
