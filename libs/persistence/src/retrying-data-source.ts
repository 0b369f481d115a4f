import { DataSource, type EntityManager, type ObjectLiteral, type QueryRunner } from 'typeorm';
import {
  retryingTransaction,
  transactionRetryPolicy,
  type HasTransactionRetry,
} from './transaction-retry.js';

type Work<T> = (entityManager: EntityManager) => Promise<T>;
/** TypeORM's `IsolationLevel` (not exported by its index): the second overload's first parameter. */
type IsolationLevel = Parameters<DataSource['transaction']>[0];

/**
 * TypeORM's `DataSource` where every transaction a service opens survives deadlocks and
 * serialization failures (docs/architecture.md § Deadlocks and serialization failures):
 * `transaction(work)` runs the whole of `work` again in a new transaction when PostgreSQL chose
 * it as a victim (`40P01`, `40001`), and `query(sql)` without a query runner — one autocommit
 * statement — likewise. A statement inside a transaction (`manager.query`, a query runner) is
 * not retried on its own: the transaction around it is. `preparedQuery` uses the same policy.
 * Created by `createDataSource`; services inject it as `DataSource`.
 */
export class RetryingDataSource extends DataSource implements HasTransactionRetry {
  /** The cockatiel policy of this database (`transactionRetryPolicy`). */
  readonly transactionRetry = transactionRetryPolicy();

  override transaction<T>(runInTransaction: Work<T>): Promise<T>;
  override transaction<T>(isolationLevel: IsolationLevel, runInTransaction: Work<T>): Promise<T>;
  override transaction<T>(first: IsolationLevel | Work<T>, second?: Work<T>): Promise<T> {
    return retryingTransaction(this, () =>
      typeof first === 'function'
        ? super.transaction(first)
        : super.transaction(first, second as Work<T>),
    );
  }

  override query<T = unknown>(
    query: string,
    parameters?: unknown[] | ObjectLiteral,
    queryRunner?: QueryRunner,
  ): Promise<T> {
    if (queryRunner !== undefined) return super.query<T>(query, parameters, queryRunner);
    return retryingTransaction(this, () => super.query<T>(query, parameters));
  }
}
