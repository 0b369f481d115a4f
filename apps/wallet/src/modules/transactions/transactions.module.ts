import { Module } from '@nestjs/common';
import { AssetsModule } from '../assets/assets.module.js';
import { LedgerModule } from '../ledger/ledger.module.js';
import { WalletsModule } from '../wallets/wallets.module.js';
import { CreditRecorder } from './credit-recorder.js';
import { TransactionsController } from './transactions.controller.js';
import { TransactionsService } from './transactions.service.js';

@Module({
  imports: [WalletsModule, LedgerModule, AssetsModule],
  controllers: [TransactionsController],
  providers: [TransactionsService, CreditRecorder],
})
export class TransactionsModule {}
