import type { ObservationRecord } from '../records.js';
import { OBSERVATION_ROWS, TRACE_ROWS } from './row-mapping.js';

const observation: ObservationRecord = {
  projectId: 7,
  id: 'obs-1',
  traceId: 'trace-1',
  parentObservationId: null,
  type: 'GENERATION',
  name: 'llm',
  startTime: new Date('2025-06-01T10:00:00.000Z'),
  endTime: null,
  completionStartTime: null,
  model: 'gpt-4o',
  modelParameters: undefined,
  input: { q: 'hi' },
  output: null,
  metadata: null,
  level: 'DEFAULT',
  statusMessage: null,
  version: null,
  environment: 'default',
  promptName: null,
  promptVersion: null,
  usageDetails: { input: 500, input_cached_tokens: 100, output: 50, total: 650 },
  costDetails: { total: 0.00175 },
  providedUsageDetails: { input: 500, output: 50 },
  providedCostDetails: {},
  totalCost: 0.00175,
  modelId: 'm1',
  inputPrice: 2.5e-6,
  outputPrice: 1e-5,
  totalPrice: null,
  unit: 'TOKENS',
  implicit: false,
  createdAt: new Date('2025-06-01T10:00:01.000Z'),
  updatedAt: new Date('2025-06-01T10:00:02.000Z'),
};

describe('rows derived from the table descriptions', () => {
  it('writes every record field under its snake_case column, plus the computed usage sums', () => {
    const row = OBSERVATION_ROWS.toRow(observation);
    expect(Object.keys(row).sort()).toEqual([...OBSERVATION_ROWS.writeColumns].sort());
    expect(row).toMatchObject({
      project_id: 7,
      trace_id: 'trace-1',
      parent_observation_id: null,
      start_time: '2025-06-01T10:00:00.000Z',
      end_time: null,
      model_parameters: null,
      usage_details: observation.usageDetails,
      input_usage: 600,
      output_usage: 50,
      total_usage: 650,
      created_at: '2025-06-01T10:00:01.000Z',
    });
  });

  it('reads a row as node-postgres returns it back into the same record', () => {
    const written = OBSERVATION_ROWS.toRow(observation);
    const raw: Record<string, unknown> = {
      ...written,
      start_time: observation.startTime,
      created_at: observation.createdAt,
      updated_at: observation.updatedAt,
      total_cost: '0.00175', // numeric arrives as a string
    };
    const record = OBSERVATION_ROWS.toRecord(raw as never);
    expect(record).toEqual({ ...observation, modelParameters: null });
  });

  it('leaves columns written by SQL alone out of the record and out of the upsert', () => {
    expect(TRACE_ROWS.writeColumns).not.toContain('rollup');
    expect(TRACE_ROWS.select('t')).not.toContain('rollup');
    expect(TRACE_ROWS.select('t')).toContain('t."user_id"');
    expect(OBSERVATION_ROWS.select()).not.toContain('input_usage');
  });
});
