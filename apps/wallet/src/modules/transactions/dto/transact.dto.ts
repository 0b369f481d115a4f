import { Type } from 'class-transformer';
import { IsDefined, IsObject, IsString, MaxLength, ValidateNested } from 'class-validator';
import { FAST_VALIDATION, MayBeAbsent, MayBeNull } from '@wp/http';
import { ASSET_CODE } from '../../../config/wallet.config.js';
import { amountProblem } from '../../../common/amount.js';
import {
  IsAmount,
  IsAssetCode,
  IsSmallObject,
  IsWalletAddress,
  LowerCase,
} from '../../../common/validators.js';
import { WALLET_ADDRESS } from '../../../common/address.js';

/** `transaction` of `POST /wallets/transact` (docs/api.md § Wallets). */
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

  /** A JSON number: > 0, ≤ 1e15, at most 8 decimals (docs/architecture.md § Amounts). */
  @IsDefined({ message: 'amount is required' })
  @IsAmount()
  amount!: number;

  /** Absent or null: no description (a null was always accepted here). */
  @MayBeNull()
  @IsString()
  @MaxLength(500)
  description?: string | null;

  /** At most 8 KB. */
  @MayBeAbsent()
  @IsSmallObject(8192)
  metadata?: Record<string, unknown>;
}

export class TransactBody {
  @IsDefined({ message: 'transaction is required' })
  @IsObject({ message: 'transaction must be an object' })
  @ValidateNested()
  @Type(() => TransactionDto)
  transaction!: TransactionDto;

  /**
   * The hot route's fast path (`FAST_VALIDATION` of `@wp/http`): a body every rule above
   * accepts, without `metadata`, becomes the same instances class-validator would give
   * (addresses lower-cased, unknown fields left out); anything else — including every body that
   * will be refused — returns undefined and goes through class-validator, which words the 400.
   */
  static [FAST_VALIDATION](value: unknown): TransactBody | undefined {
    if (!isPlainObject(value) || !isPlainObject(value.transaction)) return undefined;
    const t = value.transaction;
    const from = address(t.from_wallet);
    const to = address(t.to_wallet);
    const { from_asset: fromAsset, to_asset: toAsset, amount, description } = t;
    if (from === undefined || to === undefined) return undefined;
    if (!isAssetCode(fromAsset) || !isAssetCode(toAsset)) return undefined;
    if (amountProblem(amount) !== null) return undefined;
    // MaxLength counts code points: 500 UTF-16 units or fewer is always within it.
    const plainDescription =
      description === undefined ||
      description === null ||
      (typeof description === 'string' && description.length <= 500);
    if (!plainDescription || t.metadata !== undefined) return undefined;
    const dto = new TransactionDto();
    dto.from_wallet = from;
    dto.to_wallet = to;
    dto.from_asset = fromAsset;
    dto.to_asset = toAsset;
    dto.amount = amount as number;
    dto.description = description;
    const body = new TransactBody();
    body.transaction = dto;
    return body;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A well-formed address, lower-cased (as `@LowerCase() @IsWalletAddress()`), else undefined. */
function address(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const lower = value.toLowerCase();
  return WALLET_ADDRESS.test(lower) ? lower : undefined;
}

function isAssetCode(value: unknown): value is string {
  return typeof value === 'string' && ASSET_CODE.test(value);
}
