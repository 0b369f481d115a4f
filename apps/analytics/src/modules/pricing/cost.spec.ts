import type { ModelPriceRecord, ObservationRecord } from '../storage/records.js';
import { applyUsageAndCost } from './cost.js';
import { compilePattern } from './price-table.js';

const price: ModelPriceRecord = {
  id: 'p',
  projectId: null,
  modelName: 'm',
  matchPattern: '(?i)^m$',
  startDate: null,
  unit: 'TOKENS',
  prices: { input: 0.001, output: 0.002, input_cached_tokens: 0.0005 },
};

function obs(
  provided: Record<string, number>,
  cost: Record<string, number> = {},
): ObservationRecord {
  return { providedUsageDetails: provided, providedCostDetails: cost } as ObservationRecord;
}

describe('applyUsageAndCost (Langfuse calculateUsageCosts)', () => {
  it('prices each usage type and totals them', () => {
    const r = applyUsageAndCost(obs({ input: 10, output: 5, input_cached_tokens: 4 }), price);
    expect(r.usageDetails).toEqual({ input: 10, output: 5, input_cached_tokens: 4, total: 19 });
    expect(r.costDetails).toEqual({
      input: 0.01,
      output: 0.01,
      input_cached_tokens: 0.002,
      total: 0.022,
    });
    expect(r.totalCost).toBeCloseTo(0.022, 12);
    expect(r).toMatchObject({
      modelId: 'p',
      inputPrice: 0.001,
      outputPrice: 0.002,
      totalPrice: null,
    });
  });

  it('keeps a provided total usage', () => {
    expect(applyUsageAndCost(obs({ input: 1, total: 100 }), null).usageDetails).toEqual({
      input: 1,
      total: 100,
    });
  });

  it('lets provided costs win and derives their total from input and output only', () => {
    expect(applyUsageAndCost(obs({ input: 10 }, { input: 1, output: 2 }), price)).toMatchObject({
      costDetails: { input: 1, output: 2, total: 3 },
      totalCost: 3,
    });
    expect(
      applyUsageAndCost(obs({ input: 10 }, { input: 1, other: 2 }), price).totalCost,
    ).toBeNull();
    expect(applyUsageAndCost(obs({}, { total: 7 }), price).totalCost).toBe(7);
  });

  it('has no cost without a price and without provided costs', () => {
    expect(applyUsageAndCost(obs({ input: 10 }), null)).toMatchObject({
      costDetails: {},
      totalCost: null,
    });
  });
});

describe('compilePattern', () => {
  it('understands the (?i) prefix of Langfuse patterns', () => {
    expect(compilePattern('(?i)^gpt-4o$')!.test('GPT-4O')).toBe(true);
    expect(compilePattern('^gpt-4o$')!.test('GPT-4O')).toBe(false);
    expect(compilePattern('(')).toBeNull();
  });
});
