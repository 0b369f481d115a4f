import { Type } from 'class-transformer';
import {
  IsDefined,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import {
  IsAmount,
  IsAssetCode,
  IsSmallObject,
  IsWalletAddress,
  LowerCase,
} from '../../../common/validators.js';

/** `transaction` of `POST /wallets/transact` (contract § Wallets). */
export class TransactionDto {
  @IsDefined({ message: 'from_wallet is required' })
  @LowerCase()
  @IsWalletAddress()
  from_wallet!: string;

  @IsDefined({ message: 'to_wallet is required' })
  @LowerCase()
  @IsWalletAddress()
  to_wallet!: string;

  @IsDefined({ message: 'from_asset is required' })
  @IsAssetCode()
  from_asset!: string;

  @IsDefined({ message: 'to_asset is required' })
  @IsAssetCode()
  to_asset!: string;

  /** A JSON number: > 0, ≤ 1e15, at most 8 decimals (ARCHITECTURE § 4 "Amounts"). */
  @IsDefined({ message: 'amount is required' })
  @IsAmount()
  amount!: number;

  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;

  /** At most 8 KB. */
  @IsOptional()
  @IsSmallObject(8192)
  metadata?: Record<string, unknown>;
}

export class TransactBody {
  @IsDefined({ message: 'transaction is required' })
  @IsObject({ message: 'transaction must be an object' })
  @ValidateNested()
  @Type(() => TransactionDto)
  transaction!: TransactionDto;
}
