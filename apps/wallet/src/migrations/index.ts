import { Init1795329927840 } from './1795329927840-init.js';

/** Applied in this order; generated with `npm run migration:generate -- wallet <Name>`. */
export const WALLET_MIGRATIONS: (new () => unknown)[] = [Init1795329927840];
