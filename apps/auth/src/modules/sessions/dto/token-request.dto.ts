import { PartialType, PickType } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { FAST_VALIDATION, MayBeAbsent } from '@wp/http';

const isPasswordGrant = (dto: TokenRequestDto) =>
  dto.grant_type === undefined || dto.grant_type === 'password';

const isClientCredentials = (dto: TokenRequestDto) => dto.grant_type === 'client_credentials';

const isAuthorizationCode = (dto: TokenRequestDto) => dto.grant_type === 'authorization_code';

/**
 * Body of `POST /oauth/token` (docs/api.md § Accounts and sessions): `username` (email or phone)
 * and `password` for the `password` grant (the default); `client_id` (Sentinel Pass id) and
 * `client_secret` (its key) for `client_credentials` (agents,
 * docs/architecture.md § Decisions where the contract is silent).
 */
export class TokenRequestDto {
  @MayBeAbsent()
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

  /** Sentinel Pass id (`client_credentials`). */
  @ValidateIf(isClientCredentials)
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  client_id!: string;

  /** Sentinel Pass key (`client_credentials`). */
  @ValidateIf(isClientCredentials)
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  client_secret!: string;

  /** One-time code of a provider sign-in (`authorization_code`; docs/auth.md § Sign-in with an OpenID provider). */
  @ValidateIf(isAuthorizationCode)
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  code!: string;

  /** The redirect URI of the authorization request, exactly (`authorization_code`). */
  @ValidateIf(isAuthorizationCode)
  @IsString()
  @MinLength(1)
  @MaxLength(500)
  redirect_uri!: string;

  /** PKCE verifier of the request's `code_challenge` (RFC 7636; `authorization_code`). */
  @ValidateIf(isAuthorizationCode)
  @IsString()
  @MinLength(43)
  @MaxLength(128)
  code_verifier!: string;
}

/**
 * The `password` grant as the document describes it (one branch of the `oneOf` of
 * `POST /oauth/token`): `username` and `password` with the bounds of {@link TokenRequestDto},
 * `grant_type` absent or `password`. Documentation only; {@link TokenRequestDto} validates.
 */
export class PasswordGrantDto extends PickType(TokenRequestDto, ['username', 'password']) {
  /** `password`, the default when absent. */
  @MayBeAbsent()
  @IsIn(['password'])
  grant_type?: 'password';
}

/**
 * The `client_credentials` grant (Sentinel Pass agents) as the document describes it: the
 * other branch of the `oneOf`, `client_id` and `client_secret` with the bounds of
 * {@link TokenRequestDto} — in the body, or instead in an HTTP Basic `Authorization` header
 * (RFC 6749 § 2.3.1, oauth-token-request.ts), hence optional here. Documentation only;
 * {@link TokenRequestDto} validates.
 */
export class ClientCredentialsGrantDto extends PartialType(
  PickType(TokenRequestDto, ['client_id', 'client_secret']),
) {
  @IsIn(['client_credentials'])
  grant_type!: 'client_credentials';
}

/**
 * The `authorization_code` grant (sign-in with an OpenID provider, PKCE) as the document
 * describes it. Documentation only; {@link TokenRequestDto} validates.
 */
export class AuthorizationCodeGrantDto extends PickType(TokenRequestDto, [
  'code',
  'redirect_uri',
  'code_verifier',
]) {
  @IsIn(['authorization_code'])
  grant_type!: 'authorization_code';
}

/** Body of `POST /oauth/token/refresh`. */
export class RefreshRequestDto {
  @IsString()
  @MinLength(1)
  @MaxLength(512)
  refresh_token!: string;

  /**
   * The hot route's fast path (`FAST_VALIDATION` of `@wp/http`): an object whose
   * `refresh_token` is a non-empty string of at most 512 UTF-16 units (so at most 512 code
   * points, within `MaxLength`) becomes the instance class-validator would give, other fields
   * left out; anything else returns undefined and class-validator words the 400.
   */
  static [FAST_VALIDATION](value: unknown): RefreshRequestDto | undefined {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const token = (value as { refresh_token?: unknown }).refresh_token;
    if (typeof token !== 'string' || token.length === 0 || token.length > 512) return undefined;
    const dto = new RefreshRequestDto();
    dto.refresh_token = token;
    return dto;
  }
}
