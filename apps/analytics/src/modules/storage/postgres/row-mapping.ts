import {
  type ColumnKind,
  columnName,
  type RecordOf,
  type RowOf,
  type StoredColumn,
  type Table,
} from '../schema/columns.js';
import { MODEL_PRICE_TABLE } from '../schema/model-price.table.js';
import { OBSERVATION_TABLE } from '../schema/observation.table.js';
import { SCORE_TABLE } from '../schema/score.table.js';
import { TRACE_TABLE } from '../schema/trace.table.js';
import { quote } from './sql-values.js';

/** node-postgres value → record value, per kind (null in a nullable column stays null). */
const READ: Record<ColumnKind, (raw: unknown) => unknown> = {
  text: (raw) => raw,
  integer: (raw) => raw,
  bigint: (raw) => Number(raw),
  double: (raw) => raw,
  decimal: (raw) => Number(raw),
  boolean: (raw) => raw,
  timestamp: (raw) => raw,
  date: (raw) => raw,
  json: (raw) => raw,
  numberMap: (raw) => numbers(raw as Record<string, unknown> | null),
  textArray: (raw) => raw ?? [],
};

/** Record value → JSON value for `jsonb_populate_recordset`, per kind (null/undefined: NULL). */
const WRITE: Record<ColumnKind, (value: unknown) => unknown> = {
  text: (value) => value,
  integer: (value) => value,
  bigint: (value) => value,
  double: (value) => value,
  decimal: (value) => value,
  boolean: (value) => value,
  timestamp: (value) => (value as Date).toISOString(),
  date: (value) => value,
  json: (value) => value,
  numberMap: (value) => value,
  textArray: (value) => value,
};

/** One column as the mapping uses it. */
interface MappedColumn {
  property: string;
  name: string;
  kind: ColumnKind;
  nullable: boolean;
}

/**
 * Rows ↔ records of one table on PostgreSQL, derived from its description in `schema/`
 * (docs/analytics.md § Storage and the daily rollup): the column lists to select and to write,
 * and the two conversions. Built once per table.
 */
export class RowMapping<T extends Table> {
  /** The table's name in SQL. */
  readonly table: string;
  /** Every column an upsert writes: the record's fields and the computed storage columns. */
  readonly writeColumns: readonly string[];
  private readonly fields: MappedColumn[];
  private readonly computed: { name: string; stored: StoredColumn<RecordOf<T>> }[];

  constructor(description: T) {
    this.table = description.name;
    this.fields = Object.entries(description.fields).map(([property, column]) => ({
      property,
      name: columnName(property),
      kind: column.spec.kind,
      nullable: column.spec.nullable,
    }));
    this.computed = Object.entries(description.stored)
      .filter(([, stored]) => stored.compute !== undefined)
      .map(([property, stored]) => ({
        name: columnName(property),
        stored,
      }));
    this.writeColumns = [...this.fields.map((f) => f.name), ...this.computed.map((c) => c.name)];
  }

  /** The record's columns for a SELECT list, qualified by `alias` when given. */
  select(alias?: string): string {
    return this.fields.map((f) => (alias ? `${alias}.${quote(f.name)}` : quote(f.name))).join(', ');
  }

  /** The record of a row selected with {@link select}. */
  toRecord(row: RowOf<T>): RecordOf<T> {
    const raw = row as Record<string, unknown>;
    const record: Record<string, unknown> = {};
    for (const f of this.fields) {
      const value = raw[f.name];
      record[f.property] = value === null && f.nullable ? null : READ[f.kind](value);
    }
    return record as RecordOf<T>;
  }

  /** The row an upsert writes for a record, keyed by {@link writeColumns}. */
  toRow(record: RecordOf<T>): Record<string, unknown> {
    const values = record as Record<string, unknown>;
    const row: Record<string, unknown> = {};
    for (const f of this.fields) {
      const value = values[f.property];
      row[f.name] = value === null || value === undefined ? null : WRITE[f.kind](value);
    }
    for (const c of this.computed) row[c.name] = c.stored.compute?.(record);
    return row;
  }
}

export const TRACE_ROWS = new RowMapping(TRACE_TABLE);
export const OBSERVATION_ROWS = new RowMapping(OBSERVATION_TABLE);
export const SCORE_ROWS = new RowMapping(SCORE_TABLE);
export const MODEL_PRICE_ROWS = new RowMapping(MODEL_PRICE_TABLE);

function numbers(record: Record<string, unknown> | null): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(record ?? {})) out[k] = Number(v);
  return out;
}
