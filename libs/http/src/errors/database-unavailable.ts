import type { FastifyInstance } from 'fastify';

/** `Retry-After` of the 503 answered when PostgreSQL is unreachable, seconds. */
export const DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS = 2;

/**
 * SQLSTATEs that mean "the server is (temporarily) not there", not "the statement is wrong":
 * class 08 (connection exception), 57P01 admin_shutdown, 57P02 crash_shutdown,
 * 57P03 cannot_connect_now (starting up, shutting down, in recovery), 53300
 * too_many_connections.
 * @see https://www.postgresql.org/docs/current/errcodes-appendix.html
 */
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;

/** Socket errors of a connection that could not be opened or was cut (Node `err.code`). */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * Messages of node-postgres (`pg`, `pg-pool`) for a lost or never-opened connection, which
 * carry no code: "Connection terminated unexpectedly", "Connection terminated due to connection
 * timeout", "timeout exceeded when trying to connect" (pool `connectionTimeoutMillis`),
 * "Client has encountered a connection error and is not queryable".
 * @see https://node-postgres.com/apis/pool
 */
const PG_CONNECTION_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable)/;

/**
 * TypeORM's error for a query on a query runner it released: `PostgresQueryRunner` releases its
 * runner when the connection emits `error` (the server went away or the socket was cut), so the
 * transaction's next statement fails with it rather than with the connection error. Matched by
 * name: libs/http does not depend on TypeORM.
 */
const RELEASED_RUNNER_ERROR = 'QueryRunnerAlreadyReleasedError';

/**
 * Whether an error thrown by a request is PostgreSQL being unreachable — restarting, shutting
 * down, failing over, refusing connections, or the pool unable to connect in time — rather than
 * a bug or a bad statement (also TypeORM's runner released by a lost connection). Looks through
 * TypeORM's `QueryFailedError.driverError`, `cause`
 * and `AggregateError.errors` (a refused connection to every address of a host).
 * Answered with 503 + `Retry-After` (docs/architecture.md § Errors).
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 4 || typeof error !== 'object' || error === null) return false;
  const { name, code, message, driverError, cause, errors } = error as {
    name?: unknown;
    code?: unknown;
    message?: unknown;
    driverError?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || SOCKET_CODES.has(code))) {
    return true;
  }
  if (typeof message === 'string' && PG_CONNECTION_MESSAGES.test(message)) return true;
  if (name === RELEASED_RUNNER_ERROR) return true;
  if (driverError !== undefined && isDatabaseUnavailable(driverError, depth + 1)) return true;
  if (cause !== undefined && isDatabaseUnavailable(cause, depth + 1)) return true;
  if (Array.isArray(errors) && errors.some((e) => isDatabaseUnavailable(e, depth + 1))) {
    return true;
  }
  return false;
}

type Listener = (error: unknown) => void;
const listeners = new WeakMap<FastifyInstance, Set<Listener>>();

/**
 * Registers a listener told of every request answered 503 because PostgreSQL was unreachable,
 * per Fastify instance (one per service app, several in one test process). The metrics module
 * counts them in `db_unavailable_errors_total`.
 */
export function onDatabaseUnavailable(fastify: FastifyInstance, listener: Listener): void {
  const set = listeners.get(fastify) ?? new Set<Listener>();
  set.add(listener);
  listeners.set(fastify, set);
}

/**
 * Tells the listeners of `fastify` (the request's `request.server`) of one such answer. A route
 * registered in an encapsulated plugin sees a child instance, which Fastify derives from its
 * parent with `Object.create`: the prototype chain leads to the root the listener was put on.
 */
export function notifyDatabaseUnavailable(fastify: FastifyInstance, error: unknown): void {
  let at: object | null | undefined = fastify;
  for (; at !== null && at !== undefined; at = Object.getPrototypeOf(at) as object | null) {
    const set = listeners.get(at as FastifyInstance);
    if (set === undefined) continue;
    for (const listener of set) listener(error);
    return;
  }
}
