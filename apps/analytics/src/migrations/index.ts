import { Init1795330077820 } from './1795330077820-init.js';

/** Applied in this order; generated with `npm run migration:generate -- analytics <Name>`. */
export const ANALYTICS_MIGRATIONS: (new () => unknown)[] = [Init1795330077820];
