import type { DynamicModule, Provider } from '@nestjs/common';
import {
  ClsPluginTransactional,
  getTransactionHostToken,
  TransactionHost,
} from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { ClsModule } from 'nestjs-cls';
import { DataSource, type EntityManager } from 'typeorm';

export { Propagation } from '@nestjs-cls/transactional';

/**
 * The unit of work carried in the async context (docs/decisions.md § Transactions in the request
 * context). Inject it by this class in a provider's constructor:
 * `constructor(private readonly txHost: TxHost) {}`; {@link transactionContext} binds the token
 * to the plugin's `TransactionHost` of the app's own DataSource (the instance is that host; this
 * abstract class only names it for Nest's injection and gives it its TypeORM type).
 *
 * - `txHost.tx`: the `EntityManager` of the transaction active in this async context, or
 *   `dataSource.manager` (one autocommit statement per call) when none is.
 * - `txHost.withTransaction(work)`: one boundary. Opens a transaction through the app's
 *   `DataSource.transaction` — a `RetryingDataSource`, so the WHOLE of `work` runs again when
 *   PostgreSQL rolls it back as a deadlock or serialization victim (docs/architecture.md
 *   § Deadlocks and serialization failures) — or joins the one already active (propagation
 *   `Required`). Opens the async context itself, so HTTP handlers, bus consumers and periodic
 *   jobs use it the same way. `withTransaction({ isolationLevel }, work)` sets the isolation.
 * - `txHost.isTransactionActive()`: whether a boundary is open here.
 * @see https://papooch.github.io/nestjs-cls/plugins/available-plugins/transactional
 */
export abstract class TxHost extends TransactionHost<TransactionalAdapterTypeOrm> {}

/**
 * The imports and providers that give an app's module tree its {@link TxHost}, bound to the
 * `DataSource` provider of that tree (`DatabaseModule.forRoot` wires it for every app).
 *
 * `connectionName` (the service name) keeps apps apart when several run in one process (tests,
 * embedded mode): the active transaction is stored in the async context under a key of its own
 * per name, so a call from one app into another never picks up the caller's transaction, and
 * the plugin's process-wide registry of hosts (used by its `@Transactional()` decorator, which
 * this repository does not use — the ESLint rule in eslint.config.mjs refuses it) holds one per
 * name. The CLS context is opened by the boundary itself (`withTransaction`), so no
 * middleware, guard or interceptor is registered: requests that open no transaction pay nothing.
 */
export function transactionContext(connectionName: string): {
  imports: DynamicModule[];
  providers: Provider[];
  exports: (typeof TxHost)[];
} {
  return {
    imports: [
      // `registerPlugins`, not `forRoot`: the root module registers a global guard and a
      // global interceptor even when told to mount neither (no-ops), and a global interceptor
      // puts Nest's RxJS interceptor pipeline on every route (measured: +0.04-0.1 ms of CPU on
      // GET /oauth/token/info). The host finds the ClsService statically, so nothing else of
      // the root module is needed.
      ClsModule.registerPlugins([
        new ClsPluginTransactional({
          connectionName,
          adapter: new TransactionalAdapterTypeOrm({ dataSourceToken: DataSource }),
        }),
      ]),
    ],
    providers: [{ provide: TxHost, useExisting: getTransactionHostToken(connectionName) }],
    exports: [TxHost],
  };
}

/**
 * The manager of the transaction active in this async context, for statements that must never
 * run on their own (a write that belongs to a command).
 * @throws Error when no boundary (`txHost.withTransaction`) is open: a programming error, the
 *   statement would otherwise autocommit outside the command's transaction
 */
export function activeTransaction(txHost: TxHost): EntityManager {
  if (!txHost.isTransactionActive()) {
    throw new Error('no transaction is active: open one with txHost.withTransaction(...)');
  }
  return txHost.tx;
}
