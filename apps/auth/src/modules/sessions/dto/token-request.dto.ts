import { IsString, MaxLength, MinLength } from 'class-validator';

/** Body of `POST /oauth/token` with user credentials (contract § Accounts and sessions). */
export class PasswordGrantDto {
  /** Email or phone number. */
  @IsString()
  @MinLength(1)
  @MaxLength(254)
  username!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(128)
  password!: string;
}
