import { Controller, Get, Query } from '@nestjs/common';
import { CurrentPrincipal, type Principal } from '@wp/security';
import { ListWalletsQuery } from './dto/list-wallets.query.js';
import { toWalletRecord, type WalletRecord } from './wallet.serializer.js';
import { WalletsService } from './wallets.service.js';

@Controller('wallets')
export class WalletsController {
  constructor(private readonly wallets: WalletsService) {}

  /** `GET /wallets?entity_type=` (contract § Wallets): `{data: [wallet]}`. */
  @Get()
  async list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ListWalletsQuery,
  ): Promise<{ data: WalletRecord[] }> {
    const wallets = await this.wallets.listVisible(principal, query.entity_type);
    return { data: wallets.map(toWalletRecord) };
  }
}
