import type { Amount } from '../../common/amount.js';

/** available / held of one wallet in one asset. */
export interface BalanceView {
  walletAddress: string;
  asset: string;
  available: Amount;
  held: Amount;
}

/**
 * The balances a wallet record shows, as wallets needs them. Declared here, below the ledger
 * that keeps them: `LedgerRepository` implements it and `LedgerModule` (global) provides it
 * under this class as token, so wallets reads balances without importing the ledger
 * (docs/architecture.md § Inner layering).
 */
export abstract class WalletBalances {
  /** Balances of the given wallets (rows that exist; a missing row is a zero balance). */
  abstract balancesOf(addresses: string[]): Promise<BalanceView[]>;
}
