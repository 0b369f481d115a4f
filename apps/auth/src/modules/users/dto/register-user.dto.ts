import { IsIn, IsString, Length, MaxLength, MinLength } from 'class-validator';
import { MayBeAbsent } from '@wp/http';

/** Body of `POST /users` (docs/api.md § Accounts and sessions). */
export class RegisterUserDto {
  /** Email, or phone number in E.164 when `method` is `phone`. */
  @IsString()
  @MinLength(1)
  @MaxLength(254)
  username!: string;

  /** 8 to 128 characters (docs/architecture.md § Identity and access ("Passwords")). */
  @IsString()
  @Length(8, 128)
  password!: string;

  /** `phone` for phone registration; omitted or `email` for email. */
  @MayBeAbsent()
  @IsIn(['email', 'phone'])
  method?: 'email' | 'phone';
}
