import { AsyncLocalStorage } from 'node:async_hooks';
import type { OrgTestContext } from './org-test-app.js';

/**
 * Counts the SELECT statements the org service sends on behalf of `action` (queries made in its
 * async context), leaving out `SELECT 1` and the outbox/idempotency bookkeeping tables. Event
 * handlers and the outbox relay that run meanwhile are not counted.
 */
export async function countQueries(
  ctx: OrgTestContext,
  action: () => Promise<unknown>,
): Promise<number> {
  const runner = ctx.db.createQueryRunner();
  const proto = Object.getPrototypeOf(runner) as { query: (...args: any[]) => unknown };
  await runner.release();
  const original = proto.query;
  const seen: string[] = [];
  const scope = new AsyncLocalStorage<true>();
  proto.query = function (this: unknown, sql: string, ...rest: unknown[]) {
    if (scope.getStore()) seen.push(sql);
    return original.call(this, sql, ...rest);
  };
  try {
    // `inject` runs the handler in the caller's async context, so only queries made for the
    // action are counted — not those of event handlers or the outbox relay running meanwhile.
    await scope.run(true, action);
  } finally {
    proto.query = original;
  }
  // Count reads of domain tables only.
  return seen.filter(
    (sql) =>
      /^\s*SELECT/i.test(sql) &&
      sql.trim() !== 'SELECT 1' &&
      !/outbox_message|processed_event/i.test(sql),
  ).length;
}
