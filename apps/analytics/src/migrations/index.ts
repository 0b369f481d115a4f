import { SeedModelPrices1795331841600 } from './1795331841600-seed-model-prices.js';
import { AnalyticsStorage1795331841567 } from './1795331841567-analytics-storage.js';
import { Init1795330077820 } from './1795330077820-init.js';

/** Applied in this order; generated with `npm run migration:generate -- analytics <Name>`. */
export const ANALYTICS_MIGRATIONS: (new () => unknown)[] = [
  Init1795330077820,
  AnalyticsStorage1795331841567,
  SeedModelPrices1795331841600,
];
