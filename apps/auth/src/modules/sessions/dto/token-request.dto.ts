import { IsOptional, IsString, MaxLength, MinLength, ValidateIf } from 'class-validator';

const isPasswordGrant = (dto: TokenRequestDto) =>
  dto.grant_type === undefined || dto.grant_type === 'password';

/**
 * Body of `POST /oauth/token` (contract § Accounts and sessions): `username` (email or phone)
 * and `password`. `grant_type` is optional and, when sent, must be `password` for now; the body
 * stays open for `client_credentials` (Sentinel Pass agents, ARCHITECTURE § 4), whose fields
 * are then validated by that grant.
 */
export class TokenRequestDto {
  @IsOptional()
  @IsString()
  @MaxLength(64)
  grant_type?: string;

  /** Email or phone number. */
  @ValidateIf(isPasswordGrant)
  @IsString()
  @MinLength(1)
  @MaxLength(254)
  username!: string;

  @ValidateIf(isPasswordGrant)
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  password!: string;
}

/** Body of `POST /oauth/token/refresh`. */
export class RefreshRequestDto {
  @IsString()
  @MinLength(1)
  @MaxLength(512)
  refresh_token!: string;
}
