import { Module } from '@nestjs/common';
import { WALLET_CONFIG, type WalletConfig } from '../../config/wallet.config.js';
import { KeyedLimiter } from './keyed-limiter.js';
import { LedgerMetrics } from './ledger.metrics.js';
import { LedgerRepository } from './ledger.repository.js';
import { MoveBatcher } from './move-batcher.js';

/** The double-entry ledger: the movement function, balances, history, reservations. */
@Module({
  providers: [
    LedgerRepository,
    LedgerMetrics,
    MoveBatcher,
    {
      provide: KeyedLimiter,
      inject: [WALLET_CONFIG],
      useFactory: (config: WalletConfig) => new KeyedLimiter(config.WALLET_HOT_BALANCE_CONCURRENCY),
    },
  ],
  exports: [LedgerRepository, KeyedLimiter, MoveBatcher],
})
export class LedgerModule {}
