import type { ObservationLevel, ObservationType } from '../enums.js';
import { column, table } from './columns.js';
import { entitySchemaOf } from './entity-schema.js';

/**
 * A Langfuse observation (`commons.yml` Observation / ObservationsView): the one description of
 * the `observation` table and of `ObservationRecord` (see `columns.ts`).
 */
export const OBSERVATION_TABLE = table(
  'observation',
  {
    projectId: column.integer().primary(),
    id: column.text().primary(),
    traceId: column.text(),
    parentObservationId: column.text().nullable(),
    type: column.text<ObservationType>(),
    name: column.text().nullable(),
    startTime: column.timestamp(),
    endTime: column.timestamp().nullable(),
    completionStartTime: column.timestamp().nullable(),
    model: column.text().nullable(),
    modelParameters: column.json().nullable(),
    input: column.json().nullable(),
    output: column.json().nullable(),
    metadata: column.json().nullable(),
    level: column.text<ObservationLevel>().default('DEFAULT'),
    statusMessage: column.text().nullable(),
    version: column.text().nullable(),
    environment: column.text().default('default'),
    promptName: column.text().nullable(),
    promptVersion: column.integer().nullable(),
    /** Usage units by usage type (`input`, `output`, `total`, `input_cached_tokens`, …). */
    usageDetails: column.numberMap().default(() => "'{}'"),
    /** Costs in USD by usage type; `total` is the observation's cost. */
    costDetails: column.numberMap().default(() => "'{}'"),
    /** What the client sent, kept so that a later update recomputes from the right inputs. */
    providedUsageDetails: column.numberMap().default(() => "'{}'"),
    providedCostDetails: column.numberMap().default(() => "'{}'"),
    totalCost: column.decimal().nullable(),
    /** Price table entry that produced calculated costs, and its unit prices (USD per unit). */
    modelId: column.text().nullable(),
    inputPrice: column.double().nullable(),
    outputPrice: column.double().nullable(),
    totalPrice: column.double().nullable(),
    unit: column.text().nullable(),
    /** True while the observation exists only through an update event (no create seen yet). */
    implicit: column.boolean().default(false),
    createdAt: column.timestamp().default(() => 'now()'),
    updatedAt: column.timestamp().default(() => 'now()'),
  },
  {
    /** Sum of usage types containing "input" (Langfuse's daily metrics definition). */
    inputUsage: {
      column: column.bigint().default(0),
      compute: (o) => sumMatching(o.usageDetails, 'input'),
    },
    /** Sum of usage types containing "output". */
    outputUsage: {
      column: column.bigint().default(0),
      compute: (o) => sumMatching(o.usageDetails, 'output'),
    },
    /** The `total` usage type. */
    totalUsage: {
      column: column.bigint().default(0),
      compute: (o) => o.usageDetails['total'] ?? 0,
    },
  },
);

export const ObservationEntity = entitySchemaOf(OBSERVATION_TABLE, [
  { name: 'observation_project_trace_idx', columns: ['projectId', 'traceId'] },
  { name: 'observation_project_start_idx', columns: ['projectId', 'startTime'] },
]);

function sumMatching(details: Record<string, number>, needle: string): number {
  let sum = 0;
  for (const [key, value] of Object.entries(details)) {
    if (key.toLowerCase().includes(needle)) sum += value;
  }
  return sum;
}
