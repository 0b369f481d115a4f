import { column, table } from './columns.js';
import { entitySchemaOf } from './entity-schema.js';

/**
 * Model prices (docs/analytics.md § Cost): seeded for common models by a migration; rows with a
 * `project_id` override the global ones for that project. Prices are USD per unit of a usage
 * type. The one description of the `model_price` table and of `ModelPriceRecord`.
 */
export const MODEL_PRICE_TABLE = table(
  'model_price',
  {
    id: column.text().primary(),
    /** null: applies to every project. */
    projectId: column.integer().nullable(),
    modelName: column.text(),
    /** Regular expression matched against the observation's model; `(?i)` prefix = ignore case. */
    matchPattern: column.text(),
    /** Applies to observations starting at or after it; null: always. */
    startDate: column.timestamp().nullable(),
    unit: column.text().default('TOKENS'),
    /** USD per unit by usage type, e.g. `{"input": 2.5e-6, "output": 1e-5}`. */
    prices: column.json<Record<string, number>>(),
  },
  { createdAt: { column: column.timestamp().default(() => 'now()') } },
);

export const ModelPriceEntity = entitySchemaOf(MODEL_PRICE_TABLE, [
  { name: 'model_price_project_idx', columns: ['projectId'] },
]);
