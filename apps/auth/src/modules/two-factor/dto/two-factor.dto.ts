import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { MayBeAbsent, SchemaRule } from '@wp/http';

/** Body of `POST /users/me/two_factor` (start enrolment): the account password, re-checked. */
export class StartTwoFactorDto {
  @ApiProperty({ description: 'The account password (re-authentication).', format: 'password' })
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  password!: string;
}

/** Body of `POST /users/me/two_factor/confirm`: the first code of the new authenticator. */
export class ConfirmTwoFactorDto {
  @ApiProperty({ description: 'A 6-digit code from the authenticator app.', example: '123456' })
  @IsString()
  @MinLength(1)
  @MaxLength(32)
  code!: string;
}

/**
 * A second factor: exactly one of `code` (authenticator app) or `recovery_code` — disabling,
 * regenerating recovery codes, and the login step (`MfaTokenRequestDto`).
 */
// Exactly one of the two; the service refuses both or neither (400 VALIDATION_FAILED).
@SchemaRule({ oneOf: [{ required: ['code'] }, { required: ['recovery_code'] }] })
export class SecondFactorDto {
  @ApiPropertyOptional({ description: 'A 6-digit code from the authenticator app.' })
  @MayBeAbsent()
  @IsString()
  @MinLength(1)
  @MaxLength(32)
  code?: string;

  @ApiPropertyOptional({ description: 'One of the recovery codes (`xxxxx-xxxxx`); works once.' })
  @MayBeAbsent()
  @IsString()
  @MinLength(1)
  @MaxLength(32)
  recovery_code?: string;
}

/** Body of `POST /oauth/token/mfa`: the challenge of `TWO_FACTOR_REQUIRED` and a second factor. */
export class MfaTokenRequestDto extends SecondFactorDto {
  @ApiProperty({ description: '`meta.challenge_token` of the 403 `TWO_FACTOR_REQUIRED` answer.' })
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  challenge_token!: string;
}
