import type { ModelPriceRecord, ObservationRecord } from '../storage/records.js';

/**
 * Usage and cost of an observation from what the client provided and the price of its model,
 * as Langfuse computes them (worker IngestionService `calculateUsageCosts`):
 *
 * - usage: the provided usage types; `total` = sum of the others when not given;
 * - cost: provided costs win outright (total = provided total, or input + output when only those
 *   came); otherwise each usage type with a price costs `units × price`, and the total is the
 *   `total` type's cost or the sum of the others.
 */
export function applyUsageAndCost(
  observation: ObservationRecord,
  price: ModelPriceRecord | null,
): ObservationRecord {
  const usage = { ...observation.providedUsageDetails };
  if (Object.keys(usage).length > 0 && usage['total'] === undefined) {
    usage['total'] = Object.values(observation.providedUsageDetails).reduce((a, b) => a + b, 0);
  }
  const provided = observation.providedCostDetails;
  const providedKeys = Object.keys(provided);
  let costDetails: Record<string, number> = {};
  let totalCost: number | null = null;
  if (providedKeys.length > 0) {
    costDetails = { ...provided };
    const total =
      provided['total'] ??
      (providedKeys.every((k) => k === 'input' || k === 'output')
        ? (provided['input'] ?? 0) + (provided['output'] ?? 0)
        : undefined);
    if (total !== undefined) {
      costDetails['total'] = total;
      totalCost = total;
    }
  } else if (price) {
    for (const [type, units] of Object.entries(usage)) {
      const unitPrice = price.prices[type];
      if (unitPrice !== undefined) costDetails[type] = units * unitPrice;
    }
    if (costDetails['total'] !== undefined) {
      totalCost = costDetails['total'];
    } else if (Object.keys(costDetails).length > 0) {
      totalCost = Object.values(costDetails).reduce((a, b) => a + b, 0);
      costDetails['total'] = totalCost;
    }
  }
  return {
    ...observation,
    usageDetails: usage,
    costDetails,
    totalCost,
    modelId: price?.id ?? null,
    inputPrice: price?.prices['input'] ?? null,
    outputPrice: price?.prices['output'] ?? null,
    totalPrice: price?.prices['total'] ?? null,
  };
}
