import { Init1795329927840 } from './1795329927840-init.js';
import { Ledger1795331726420 } from './1795331726420-ledger.js';
import { LedgerFunctions1795331800000 } from './1795331800000-ledger-functions.js';
import { WalletMoveChecksSource1795335000000 } from './1795335000000-wallet-move-checks-source.js';

/**
 * Applied in this order; generated with `npm run migration:generate -- wallet <Name>`, except
 * `LedgerFunctions` and `WalletMoveChecksSource` (stored function and triggers, hand-written).
 */
export const WALLET_MIGRATIONS: (new () => unknown)[] = [
  Init1795329927840,
  Ledger1795331726420,
  LedgerFunctions1795331800000,
  WalletMoveChecksSource1795335000000,
];
