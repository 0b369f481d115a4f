import { Logger, Module } from '@nestjs/common';
import { WALLET_CONFIG, type WalletConfig } from '../../config/wallet.config.js';
import { AssetsModule } from '../assets/assets.module.js';
import { DirectoryModule } from '../directory/directory.module.js';
import { LedgerModule } from '../ledger/ledger.module.js';
import { WalletsModule } from '../wallets/wallets.module.js';
import { TransferCodes } from './transfer-codes.js';
import { TransferEvents } from './transfer-events.js';
import { TransfersController } from './transfers.controller.js';
import { TransfersRepository } from './transfers.repository.js';
import { TransfersService } from './transfers.service.js';
import { TransfersSweeper } from './transfers.sweeper.js';

@Module({
  imports: [WalletsModule, LedgerModule, AssetsModule, DirectoryModule],
  controllers: [TransfersController],
  providers: [
    TransfersRepository,
    TransfersService,
    TransferEvents,
    TransfersSweeper,
    {
      provide: TransferCodes,
      inject: [WALLET_CONFIG],
      useFactory: (config: WalletConfig) => {
        if (!config.WALLET_TRANSFER_CODE_SECRET) {
          new Logger('Transfers').warn(
            'WALLET_TRANSFER_CODE_SECRET is not set (NODE_ENV=test): using a random key; codes are valid on this process only',
          );
        }
        return new TransferCodes(config.WALLET_TRANSFER_CODE_SECRET);
      },
    },
  ],
  exports: [TransfersSweeper],
})
export class TransfersModule {}
