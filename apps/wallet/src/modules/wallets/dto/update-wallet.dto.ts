import { Type } from 'class-transformer';
import { IsDefined, IsObject, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { MayBeAbsent, SchemaRule } from '@wp/http';

/** The fields of `wallet` in `PUT /wallets/{addressHash}`; at least one must be present. */
// The service refuses a `wallet` without either field (400 VALIDATION_FAILED).
@SchemaRule({ anyOf: [{ required: ['entity_name'] }, { required: ['description'] }] })
export class WalletChangesDto {
  @MayBeAbsent()
  @IsString()
  @MaxLength(200)
  @Matches(/\S/, { message: 'entity_name must not be blank' })
  entity_name?: string;

  @MayBeAbsent()
  @IsString()
  @MaxLength(1000)
  description?: string;
}

/** Body of `PUT /wallets/{addressHash}` (docs/api.md § Wallets): `{"wallet": {…}}`. */
export class UpdateWalletBody {
  @IsDefined({ message: 'wallet is required' })
  @IsObject({ message: 'wallet must be an object' })
  @ValidateNested()
  @Type(() => WalletChangesDto)
  wallet!: WalletChangesDto;
}
