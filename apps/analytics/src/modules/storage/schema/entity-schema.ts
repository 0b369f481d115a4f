import { type ColumnType, EntitySchema, type EntitySchemaColumnOptions } from 'typeorm';
import { type Column, type ColumnKind, columnName, type Fields, type Table } from './columns.js';

/** The PostgreSQL type of each column kind. */
const POSTGRES_TYPES: Record<ColumnKind, { type: ColumnType; array?: true }> = {
  text: { type: 'text' },
  integer: { type: 'integer' },
  bigint: { type: 'bigint' },
  double: { type: 'double precision' },
  decimal: { type: 'numeric' },
  boolean: { type: 'boolean' },
  timestamp: { type: 'timestamptz' },
  date: { type: 'date' },
  json: { type: 'jsonb' },
  numberMap: { type: 'jsonb' },
  textArray: { type: 'text', array: true },
};

/** An index of a table, by property names (TypeORM `EntitySchemaIndexOptions`). */
export interface TableIndex<F extends Fields> {
  name: string;
  columns?: (keyof F & string)[];
  /** false: created by hand in a migration (e.g. GIN), left alone by the drift check. */
  synchronize?: false;
}

/**
 * The TypeORM entity of a {@link Table} (https://typeorm.io/docs/entity/separating-entity-definition):
 * what migrations are generated from and what the drift check compares the database with
 * (docs/analytics.md § Storage and the daily rollup). Columns carry their snake_case names
 * explicitly, the same the SQL of `postgres/` uses.
 */
export function entitySchemaOf<F extends Fields>(
  table: Table<F>,
  indices: TableIndex<F>[] = [],
): EntitySchema {
  const columns: Record<string, EntitySchemaColumnOptions> = {};
  const add = (property: string, column: Column<unknown>) => {
    const { kind, nullable, primary, default: value } = column.spec;
    columns[property] = {
      ...POSTGRES_TYPES[kind],
      name: columnName(property),
      nullable,
      primary,
      ...(value === undefined ? {} : { default: value }),
    };
  };
  for (const [property, column] of Object.entries(table.fields)) add(property, column);
  for (const [property, stored] of Object.entries(table.stored)) add(property, stored.column);
  return new EntitySchema({ name: table.name, tableName: table.name, columns, indices });
}
