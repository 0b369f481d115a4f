import { IsIn, IsString, Length, MaxLength, MinLength } from 'class-validator';
import { MayBeAbsent, SchemaRule } from '@wp/http';

/**
 * Body of `POST /users` (docs/api.md § Accounts and sessions). The username's form follows
 * `method` (checked by `UsersService.register`: 400 `INVALID_USERNAME`): an email address by
 * default, a phone number with `phone` (international form, separators allowed). The document states the
 * outline; which addresses and numbers exist (libphonenumber's ranges, look-alike characters)
 * only the service decides.
 */
@SchemaRule({
  anyOf: [
    {
      properties: {
        method: { const: 'email' },
        username: { pattern: '^[^@\\s]+@[^@\\s]+$' },
      },
    },
    {
      required: ['method'],
      properties: {
        method: { const: 'phone' },
        // A number as people write it: `+1 415 555 0142`, fullwidth digits; libphonenumber
        // decides whether it exists.
        username: { pattern: '^\\s*[+\\uFF0B]?[\\d\\uFF10-\\uFF19\\s().-]{4,32}$' },
      },
    },
  ],
})
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
