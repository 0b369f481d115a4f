import { Module, type DynamicModule } from '@nestjs/common';
import { AppConfigModule } from '@wp/config';
import { PlatformModule } from '@wp/platform';
import { WALLET_CONFIG, type WalletConfig } from './config/wallet.config.js';
import { WALLET_ENTITIES } from './database/entities.js';
import { WALLET_MIGRATIONS } from './migrations/index.js';
import { LEDGER_OUTCOME_CODES } from './modules/ledger/ledger.errors.js';
import { DirectoryModule } from './modules/directory/directory.module.js';
import { LedgerModule } from './modules/ledger/ledger.module.js';
import { MembershipsModule } from './modules/memberships/memberships.module.js';
import { TransactionsModule } from './modules/transactions/transactions.module.js';
import { TransfersModule } from './modules/transfers/transfers.module.js';
import { WalletsModule } from './modules/wallets/wallets.module.js';

/** The wallet service ({wallet_url}): wallets, the ledger, transfer requests. */
@Module({})
export class WalletAppModule {
  static forRoot(config: WalletConfig): DynamicModule {
    return {
      module: WalletAppModule,
      imports: [
        AppConfigModule.forRoot(WALLET_CONFIG, config),
        PlatformModule.forRoot({
          service: 'wallet',
          confineAgents: true,
          config,
          database: {
            url: config.WALLET_DATABASE_URL,
            entities: WALLET_ENTITIES,
            migrations: WALLET_MIGRATIONS,
            poolSize: config.WALLET_DATABASE_POOL_SIZE,
            quietErrorCodes: LEDGER_OUTCOME_CODES,
          },
          adminAccessTokens: config.ADMIN_ACCESS_TOKENS,
        }),
        DirectoryModule,
        MembershipsModule,
        LedgerModule,
        WalletsModule,
        TransactionsModule,
        TransfersModule,
      ],
    };
  }
}
