import { Module } from '@nestjs/common';
import { WalletsController } from './wallets.controller.js';
import { WalletsHandlers } from './wallets.handlers.js';
import { WalletsRepository } from './wallets.repository.js';
import { WalletsService } from './wallets.service.js';

@Module({
  controllers: [WalletsController],
  providers: [WalletsRepository, WalletsService, WalletsHandlers],
  exports: [WalletsService],
})
export class WalletsModule {}
