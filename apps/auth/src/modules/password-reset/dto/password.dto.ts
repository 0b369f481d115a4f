import { IsString, Length, MaxLength, MinLength } from 'class-validator';
import { MayBeAbsent } from '@wp/http';

/** Body of `POST /users/password/reset_request`. */
export class ResetRequestDto {
  @IsString()
  @MinLength(1)
  @MaxLength(254)
  email!: string;
}

/** Body of `POST /users/password/reset`: all three required strings. */
export class ResetPasswordDto {
  @IsString()
  @MinLength(1)
  @MaxLength(254)
  email!: string;

  /** 8 to 128 characters (docs/architecture.md § Identity and access ("Passwords")). */
  @IsString()
  @Length(8, 128)
  new_password!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(256)
  reset_token!: string;
}

/** Body of `POST /users/password/change`: `current_password` optional, checked when sent. */
export class ChangePasswordDto {
  @IsString()
  @Length(8, 128)
  new_password!: string;

  @MayBeAbsent()
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  current_password?: string;
}
