import { Type } from 'class-transformer';
import { IsDefined, IsObject, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { MayBeAbsent } from '@wp/http';
import { IsAmount, IsAssetCode, IsWalletAddress, LowerCase } from '../../../common/validators.js';

/** `transfer` of `POST /wallet_transfers` (docs/wallet.md § Transfer requests). */
export class TransferDto {
  // jscpd:ignore-start: the same wallet fields as TransactDto, but two bodies of the contract (transfer request, transact); a shared base class would merge their OpenAPI schemas.
  @IsDefined({ message: 'from_wallet is required' })
  @LowerCase()
  @IsWalletAddress()
  from_wallet!: string;

  @IsDefined({ message: 'to_wallet is required' })
  @LowerCase()
  @IsWalletAddress()
  to_wallet!: string;

  @IsDefined({ message: 'amount is required' })
  @IsAmount()
  // jscpd:ignore-end
  amount!: number;

  /** Default `CREDITS`. */
  @MayBeAbsent()
  @IsAssetCode()
  asset?: string;

  @MayBeAbsent()
  @IsString()
  @MaxLength(500)
  description?: string;
}

export class CreateTransferBody {
  @IsDefined({ message: 'transfer is required' })
  @IsObject({ message: 'transfer must be an object' })
  @ValidateNested()
  @Type(() => TransferDto)
  transfer!: TransferDto;
}

/** Body of `verify_sender` and `accept`: the 6-digit code from the mail. */
export class VerificationBody {
  @IsDefined({ message: 'verification_code is required' })
  @IsString({ message: 'verification_code must be a string of 6 digits' })
  @Matches(/^\d{6}$/, { message: 'verification_code must be 6 digits' })
  verification_code!: string;
}
