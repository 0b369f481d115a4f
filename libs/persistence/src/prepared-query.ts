import type { Pool, QueryResultRow } from 'pg';
import type { DataSource } from 'typeorm';
import { retryingTransaction } from './transaction-retry.js';

/** A statement PostgreSQL parses once per connection: `name` is unique per SQL text. */
export interface PreparedStatement {
  /** e.g. `wallet_move`, `auth_refresh_rotate`; pg refuses one name reused with another text. */
  name: string;
  text: string;
}

/**
 * Runs a named prepared statement on the pg pool behind TypeORM's `DataSource`, for hot paths
 * (auth's refresh rotation and login, the wallet's ledger): PostgreSQL parses and plans it once
 * per connection instead of on every call (TypeORM's `query()` sends unnamed statements), and
 * the call skips TypeORM's query runner and query logging. Runs in its own transaction
 * (autocommit), run again when it is a deadlock or serialization victim (the DataSource's
 * policy, docs/architecture.md § Deadlocks and serialization failures); inside a transaction
 * use its `EntityManager`. Errors are pg's own (`code` = SQLSTATE).
 * @returns the result rows
 */
export async function preparedQuery<T extends QueryResultRow>(
  dataSource: DataSource,
  statement: PreparedStatement,
  values: unknown[],
): Promise<T[]> {
  const pool = (dataSource.driver as unknown as { master: Pool }).master;
  const query = { name: statement.name, text: statement.text, values };
  const result = await retryingTransaction(dataSource, () => pool.query<T>(query));
  return result.rows;
}
