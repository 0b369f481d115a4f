/**
 * The rows of an `UPDATE … RETURNING` / `DELETE … RETURNING` run through TypeORM's raw
 * `query()`, which answers those two commands with `[rows, rowCount]` and every other command
 * (SELECT, INSERT, WITH … INSERT) with the rows alone.
 */
export async function returningRows<T>(result: Promise<unknown>): Promise<T[]> {
  const value = await result;
  if (
    Array.isArray(value) &&
    value.length === 2 &&
    Array.isArray(value[0]) &&
    typeof value[1] === 'number'
  ) {
    return value[0] as T[];
  }
  return value as T[];
}
