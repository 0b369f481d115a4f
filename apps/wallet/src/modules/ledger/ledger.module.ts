import { Global, Module } from '@nestjs/common';
import { WALLET_CONFIG, type WalletConfig } from '../../config/wallet.config.js';
import { WalletBalances } from '../wallets/wallet-balances.js';
import { KeyedLimiter } from './keyed-limiter.js';
import { LedgerMetrics } from './ledger.metrics.js';
import { LedgerRepository } from './ledger.repository.js';
import { MoveBatcher } from './move-batcher.js';
import { TransactionAnnouncements } from './transaction-announcements.js';

/**
 * The double-entry ledger: the movement function, balances, history, reservations. Global, so
 * that wallets, which sits below the ledger, reads balances through the `WalletBalances` port
 * it declares without importing this module (docs/architecture.md § Inner layering).
 */
@Global()
@Module({
  providers: [
    LedgerRepository,
    { provide: WalletBalances, useExisting: LedgerRepository },
    LedgerMetrics,
    MoveBatcher,
    TransactionAnnouncements,
    {
      provide: KeyedLimiter,
      inject: [WALLET_CONFIG],
      useFactory: (config: WalletConfig) => new KeyedLimiter(config.WALLET_HOT_BALANCE_CONCURRENCY),
    },
  ],
  exports: [LedgerRepository, WalletBalances, KeyedLimiter, MoveBatcher],
})
export class LedgerModule {}
