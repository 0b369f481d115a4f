import { snakeCase } from '@wp/persistence';

/**
 * The vocabulary in which each stored table of the analytics service is described ONCE
 * (docs/analytics.md § Storage and the daily rollup). A table lists its fields with their kind,
 * nullability, key and default; from that one description come
 *
 * - the record type the rest of the service works with ({@link RecordOf}, re-exported by
 *   `records.ts`),
 * - the raw row type a PostgreSQL query returns ({@link RowOf}) and the column names
 *   ({@link columnName}: the snake_case rule of `SnakeNamingStrategy`),
 * - the TypeORM entity schema that migrations and the drift check compare the database with
 *   (`entity-schema.ts`),
 * - the SQL column lists and the row ↔ record mapping (`postgres/row-mapping.ts`).
 *
 * So a new Langfuse field is one line in its table (plus the migration that adds the column).
 * Kinds are the shapes of values, not one database's types: `entity-schema.ts` maps them to
 * PostgreSQL types, and another store (e.g. ClickHouse) would map them to its own.
 */

/** The value a record holds for each kind of column. */
export interface KindValues {
  text: string;
  integer: number;
  /** 64-bit integer; held as a number (usage counts stay far below 2^53). */
  bigint: number;
  double: number;
  /** Exact decimal in the database (`numeric`), a number in the record. */
  decimal: number;
  boolean: boolean;
  timestamp: Date;
  /** `YYYY-MM-DD` */
  date: string;
  json: unknown;
  /** A JSON object of numbers by name (usage or cost by usage type). */
  numberMap: Record<string, number>;
  textArray: string[];
}

/** What node-postgres returns for each kind (it leaves `bigint` and `numeric` as strings). */
export interface RawKindValues {
  text: string;
  integer: number;
  bigint: string;
  double: number;
  decimal: string;
  boolean: boolean;
  timestamp: Date;
  date: string;
  json: unknown;
  numberMap: Record<string, unknown>;
  textArray: string[];
}

export type ColumnKind = keyof KindValues;

/** A column default as TypeORM declares it: a literal, or a function returning SQL. */
export type ColumnDefault = string | number | boolean | (() => string);

/** How one column is stored. */
export interface ColumnSpec {
  kind: ColumnKind;
  nullable: boolean;
  primary: boolean;
  default?: ColumnDefault;
}

/**
 * One column: its {@link ColumnSpec}, and (in the type only) the value `T` a record holds for it.
 * Built with {@link column}, refined with `nullable()`, `primary()` and `default()`; every call
 * returns a new column.
 */
export class Column<T, K extends ColumnKind = ColumnKind> {
  /** Type-level only: the record's value type. */
  declare readonly value: T;
  /** Type-level only: the kind, for the raw row type. */
  declare readonly kind: K;

  constructor(readonly spec: ColumnSpec) {}

  nullable(): Column<T | null, K> {
    return new Column({ ...this.spec, nullable: true });
  }

  primary(): Column<T, K> {
    return new Column({ ...this.spec, primary: true });
  }

  default(value: ColumnDefault): Column<T, K> {
    return new Column({ ...this.spec, default: value });
  }
}

function of<K extends ColumnKind, T = KindValues[K]>(kind: K): Column<T, K> {
  return new Column({ kind, nullable: false, primary: false });
}

/** Column builders, one per kind; `text<T>()` narrows the value to a union of strings. */
export const column = {
  text: <T extends string = string>() => of<'text', T>('text'),
  integer: () => of('integer'),
  bigint: () => of('bigint'),
  double: () => of('double'),
  decimal: () => of('decimal'),
  boolean: () => of('boolean'),
  timestamp: () => of('timestamp'),
  date: () => of('date'),
  json: <T = unknown>() => of<'json', T>('json'),
  numberMap: () => of('numberMap'),
  textArray: () => of('textArray'),
};

/** The fields of a record: property name → column. */
export type Fields = Record<string, Column<unknown>>;

/**
 * A column of the table that is not a field of the record: `compute` derives its value from the
 * record on every write (e.g. usage sums for the rollup); without it, the column is written by
 * SQL alone (e.g. a trace's rollup contribution) and never read into a record.
 */
export interface StoredColumn<R> {
  column: Column<unknown>;
  /** A method, so that a table of specific fields is also a `Table` of any fields. */
  compute?(record: R): unknown;
}

/** The record type of a set of fields: each property with its column's value type. */
export type FieldValues<F extends Fields> = { [P in keyof F]: F[P]['value'] };

/** One stored table: its name, the fields of its record, and its storage-only columns. */
export interface Table<F extends Fields = Fields> {
  readonly name: string;
  readonly fields: F;
  readonly stored: Readonly<Record<string, StoredColumn<FieldValues<F>>>>;
}

/** Declares a table (see the file comment). */
export function table<F extends Fields>(
  name: string,
  fields: F,
  stored: Record<string, StoredColumn<FieldValues<F>>> = {},
): Table<F> {
  return { name, fields, stored };
}

/** The record type of a table. */
export type RecordOf<T extends Table> = T extends Table<infer F> ? FieldValues<F> : never;

/** `camelCase` → `snake_case` at the type level (agrees with {@link columnName}). */
export type SnakeCase<S extends string> = S extends `${infer H}${infer Rest}`
  ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${SnakeCase<Rest>}`
  : S;

type RawValue<C> =
  C extends Column<infer T, infer K> ? RawKindValues[K] | (null extends T ? null : never) : never;

/** A row of a table's record fields as node-postgres returns it, keyed by column name. */
export type RowOf<T extends Table> =
  T extends Table<infer F> ? { [P in keyof F & string as SnakeCase<P>]: RawValue<F[P]> } : never;

/** The database column of a property (`datasetRunId` → `dataset_run_id`). */
export function columnName(property: string): string {
  return snakeCase(property);
}
