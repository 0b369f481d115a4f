import { TenantPermissionVersion1796100000002 } from './1796100000002-tenant-permission-version.js';
import { WebhookHint1796200000000 } from './1796200000000-webhook-hint.js';
import { Init1795329927840 } from './1795329927840-init.js';
import { Ledger1795331726420 } from './1795331726420-ledger.js';
import { LedgerFunctions1795331800000 } from './1795331800000-ledger-functions.js';
import { WalletMoveChecksSource1795335000000 } from './1795335000000-wallet-move-checks-source.js';
import { WalletMoveBatch1795457428178 } from './1795457428178-wallet-move-batch.js';
import { WalletMoveBatchSet1795600000000 } from './1795600000000-wallet-move-batch-set.js';
import { WalletMoveBatchMulti1795700000000 } from './1795700000000-wallet-move-batch-multi.js';
import { LedgerSqlFiles1795800000000 } from './1795800000000-ledger-sql-files.js';

/**
 * Applied in this order; generated with `npm run migration:generate -- wallet <Name>`, except
 * the hand-written ones for the ledger's stored functions and triggers: `LedgerFunctions`,
 * `WalletMoveChecksSource`, `WalletMoveBatch`, `WalletMoveBatchSet`, `WalletMoveBatchMulti`
 * (history: their SQL inline) and `LedgerSqlFiles`, which loads the current definitions from
 * `modules/ledger/sql/*.sql` (docs/wallet.md § Ledger).
 */
export const WALLET_MIGRATIONS: (new () => unknown)[] = [
  Init1795329927840,
  Ledger1795331726420,
  LedgerFunctions1795331800000,
  WalletMoveChecksSource1795335000000,
  WalletMoveBatch1795457428178,
  WalletMoveBatchSet1795600000000,
  WalletMoveBatchMulti1795700000000,
  LedgerSqlFiles1795800000000,
  TenantPermissionVersion1796100000002,
  WebhookHint1796200000000,
];
