import { Module } from '@nestjs/common';
import { AssetsModule } from '../assets/assets.module.js';
import { MembershipsModule } from '../memberships/memberships.module.js';
import { WalletAccess } from './wallet-access.js';
import { WalletIdentities } from './wallet-identities.js';
import { WalletsController } from './wallets.controller.js';
import { WalletsHandlers } from './wallets.handlers.js';
import { WalletsRepository } from './wallets.repository.js';
import { WalletsService } from './wallets.service.js';

@Module({
  imports: [MembershipsModule, AssetsModule],
  controllers: [WalletsController],
  providers: [WalletsRepository, WalletsService, WalletsHandlers, WalletIdentities, WalletAccess],
  exports: [WalletsService, WalletAccess],
})
export class WalletsModule {}
