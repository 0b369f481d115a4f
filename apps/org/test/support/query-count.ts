import type { OrgTestContext } from './org-test-app.js';

/**
 * Counts the SQL statements the org service sends while `action` runs, leaving out the outbox
 * relay's own polling and transaction control statements.
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
  proto.query = function (this: unknown, sql: string, ...rest: unknown[]) {
    seen.push(sql);
    return original.call(this, sql, ...rest);
  };
  try {
    await action();
  } finally {
    proto.query = original;
  }
  // The request under test only reads; event handlers and the outbox relay running in the
  // background meanwhile write or poll, so count reads of domain tables only.
  return seen.filter(
    (sql) =>
      /^\s*SELECT/i.test(sql) &&
      sql.trim() !== 'SELECT 1' &&
      !/outbox_message|processed_event/i.test(sql),
  ).length;
}
