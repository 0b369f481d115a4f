import { IsString, Matches, MaxLength, MinLength } from 'class-validator';

/** Query of `GET /users/validate/email` (docs/api.md § Accounts and sessions). */
export class ValidateEmailQueryDto {
  @IsString()
  @MinLength(1)
  @MaxLength(254)
  email!: string;
}

/** Query of `GET /users/validate/phone`: the national number and the calling code. */
export class ValidatePhoneQueryDto {
  /** Without the country code, e.g. `4155550123`. */
  @IsString()
  @MinLength(1)
  @MaxLength(32)
  phoneNumber!: string;

  /** Calling code, e.g. `1` or `44` (a leading `+` is accepted). */
  @IsString()
  @Matches(/^\+?[1-9]\d{0,3}$/, { message: 'countryCode must be a calling code such as 1 or 44' })
  countryCode!: string;
}
