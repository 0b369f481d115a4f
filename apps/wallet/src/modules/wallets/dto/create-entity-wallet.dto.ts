import { Type } from 'class-transformer';
import {
  IsDefined,
  IsIn,
  IsObject,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { MayBeAbsent } from '@wp/http';
import { IsAssetCode, IsSmallObject } from '../../../common/validators.js';
import { WALLET_ENTITY_TYPES, type WalletEntityType } from '../wallet.entity.js';

/** `purpose`: lower-case word(s), e.g. `general`, `operating`, `project_funds`. */
export const PURPOSE = /^[a-z][a-z0-9_]{0,39}$/;

/** `entity_wallet` of `POST /wallets/create_entity_wallet` (docs/api.md § Wallets). */
export class EntityWalletDto {
  @IsDefined({ message: 'entity_type is required' })
  @IsIn(WALLET_ENTITY_TYPES, {
    message: `entity_type must be one of ${WALLET_ENTITY_TYPES.join(', ')}`,
  })
  entity_type!: WalletEntityType;

  /** A user or agent id (UUID), an organization or project id (integer as a string). */
  @IsDefined({ message: 'entity_id is required' })
  @IsString()
  @Matches(
    /^(?:[1-9]\d{0,9}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/,
    {
      message:
        'entity_id must be a UUID (user, agent) or a positive integer (organization, project)',
    },
  )
  entity_id!: string;

  @IsDefined({ message: 'entity_name is required' })
  @IsString()
  @MaxLength(200)
  @Matches(/\S/, { message: 'entity_name must not be blank' })
  entity_name!: string;

  @MayBeAbsent()
  @IsString()
  @Matches(PURPOSE, {
    message: 'purpose must be lower-case letters, digits or _ (at most 40), e.g. general',
  })
  purpose?: string;

  @MayBeAbsent()
  @IsAssetCode()
  currency?: string;

  @MayBeAbsent()
  @IsString()
  @MaxLength(1000)
  description?: string;

  /** For project wallets `{organization_id}` is required. At most 8 KB. */
  @MayBeAbsent()
  @IsSmallObject(8192)
  metadata?: Record<string, unknown>;
}

export class CreateEntityWalletBody {
  @IsDefined({ message: 'entity_wallet is required' })
  @IsObject({ message: 'entity_wallet must be an object' })
  @ValidateNested()
  @Type(() => EntityWalletDto)
  entity_wallet!: EntityWalletDto;
}
