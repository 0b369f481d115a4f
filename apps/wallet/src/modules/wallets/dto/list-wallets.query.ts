import { IsIn } from 'class-validator';
import { MayBeAbsent } from '@wp/http';
import { WALLET_ENTITY_TYPES, type WalletEntityType } from '../wallet.entity.js';

/** Query of `GET /wallets`. */
export class ListWalletsQuery {
  @MayBeAbsent()
  @IsIn(WALLET_ENTITY_TYPES)
  entity_type?: WalletEntityType;
}
