import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { ErrorSource } from '@wp/http';
import { WALLET_CONFIG, type WalletConfig } from '../../config/wallet.config.js';
import { LedgerError } from '../../common/ledger-error.js';
import { AssetsRepository } from './assets.repository.js';

/**
 * The assets wallets may hold (docs/architecture.md § Assets and conversion). At boot the asset
 * and rate tables are seeded from `WALLET_ASSETS` / `WALLET_CONVERSION_RATES`; the known codes
 * are then kept in memory (assets only change at boot).
 */
@Injectable()
export class AssetsService implements OnModuleInit {
  private known = new Set<string>();

  constructor(
    private readonly assets: AssetsRepository,
    @Inject(WALLET_CONFIG) private readonly config: WalletConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.assets.seed(this.config.WALLET_ASSETS, this.config.WALLET_CONVERSION_RATES);
    this.known = new Set(await this.assets.codes());
  }

  isKnown(code: string): boolean {
    return this.known.has(code);
  }

  /** @throws LedgerError `UNKNOWN_ASSET` (422) pointing at `source`. */
  requireKnown(code: string, source?: ErrorSource): void {
    if (!this.known.has(code)) {
      throw new LedgerError('UNKNOWN_ASSET', `The asset ${code} is not offered here.`, source);
    }
  }
}
