import { Type } from 'class-transformer';
import {
  IsDefined,
  IsObject,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { MayBeAbsent } from '@wp/http';
import { IsAmount, IsAssetCode } from '../../../common/validators.js';

/**
 * `debit` / `credit` of `POST /wallets/{addressHash}/debits|credits` (docs/api.md § Wallets).
 * `asset` (default: the wallet's currency) is an addition to the contract's fields.
 */
export class AdjustmentDto {
  @IsDefined({ message: 'amount is required' })
  @IsAmount()
  amount!: number;

  @IsDefined({ message: 'description is required' })
  @IsString()
  @MinLength(1)
  @MaxLength(500)
  description!: string;

  /** The client's idempotency reference: one movement per wallet and reference. */
  @MayBeAbsent()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  @Matches(/^[^\p{Cc}]+$/u, { message: 'reference_id must not contain control characters' })
  reference_id?: string;

  @MayBeAbsent()
  @IsAssetCode()
  asset?: string;
}

export class DebitBody {
  @IsDefined({ message: 'debit is required' })
  @IsObject({ message: 'debit must be an object' })
  @ValidateNested()
  @Type(() => AdjustmentDto)
  debit!: AdjustmentDto;
}

export class CreditBody {
  @IsDefined({ message: 'credit is required' })
  @IsObject({ message: 'credit must be an object' })
  @ValidateNested()
  @Type(() => AdjustmentDto)
  credit!: AdjustmentDto;
}
