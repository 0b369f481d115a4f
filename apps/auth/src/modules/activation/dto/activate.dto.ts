import { IsString, Matches } from 'class-validator';

/** Body of `POST /users/{userId}/activate/email|phone` (docs/api.md § Accounts and sessions). */
export class ActivateDto {
  /** Exactly six digits, as a string (leading zeros matter). */
  @IsString()
  @Matches(/^\d{6}$/, { message: 'code must be exactly 6 digits' })
  code!: string;
}
