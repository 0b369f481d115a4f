import { IsIn, IsOptional } from 'class-validator';
import { WALLET_ENTITY_TYPES, type WalletEntityType } from '../wallet.entity.js';

/** Query of `GET /wallets`. */
export class ListWalletsQuery {
  @IsOptional()
  @IsIn(WALLET_ENTITY_TYPES)
  entity_type?: WalletEntityType;
}
