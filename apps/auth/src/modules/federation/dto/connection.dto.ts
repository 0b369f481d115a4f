import { ApiProperty, OmitType, PartialType } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsString,
  IsUrl,
  Matches,
  MaxLength,
  MinLength,
} from 'class-validator';
import { MayBeAbsent } from '@wp/http';

const CLAIM = /^[A-Za-z0-9_.:-]{1,64}$/;
const SCOPE = /^[\x21\x23-\x5B\x5D-\x7E]{1,64}$/;

/**
 * Body of `POST /oauth/connections` (Admin-Access): a platform-wide OpenID Connect connection
 * (docs/auth.md § Sign-in with an OpenID provider). Claim names default to the standard ones.
 */
export class CreateConnectionDto {
  /** `[a-z0-9-]`, 1-64: the `connection` parameter of `/oauth/authorize`. */
  @IsString()
  @Matches(/^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/, { message: 'must be [a-z0-9-], 1-64' })
  slug!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name!: string;

  /** Issuer identifier (`https://…`; `http://` only with `OIDC_ALLOW_INSECURE_ISSUERS`). */
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true })
  @MaxLength(500)
  issuer!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(255)
  clientId!: string;

  /** Stored sealed; never returned. */
  @IsString()
  @MinLength(1)
  @MaxLength(1000)
  clientSecret!: string;

  /** Scopes besides `openid` (added always); default `email profile`. */
  @MayBeAbsent()
  @IsArray()
  @ArrayMaxSize(20)
  @Matches(SCOPE, { each: true })
  @ApiProperty({ type: [String], required: false })
  scopes?: string[];

  @MayBeAbsent()
  @Matches(CLAIM)
  emailClaim?: string;

  @MayBeAbsent()
  @Matches(CLAIM)
  emailVerifiedClaim?: string;

  @MayBeAbsent()
  @Matches(CLAIM)
  nameClaim?: string;

  /** Default true. */
  @MayBeAbsent()
  @IsBoolean()
  enabled?: boolean;
}

/**
 * Body of `PATCH /oauth/connections/{connectionId}`: any field of the creation but the slug;
 * absent fields stay as they are, and `null` is refused like any other wrong type
 * (`skipNullProperties: false`: the mapped type validates every value but `undefined`, where
 * its default, `@IsOptional()`, would let `null` through to the database).
 */
export class UpdateConnectionDto extends PartialType(OmitType(CreateConnectionDto, ['slug']), {
  skipNullProperties: false,
}) {}

/** Body of `PUT /oauth/applications/{appId}/redirect_uris`: the exact allow-list. */
export class RedirectUrisDto {
  @IsArray()
  @ArrayMaxSize(20)
  @IsUrl(
    { require_tld: false, protocols: ['http', 'https'], require_protocol: true },
    { each: true },
  )
  @MaxLength(500, { each: true })
  @Matches(/^[^#]*$/, { each: true, message: 'must not contain a fragment (RFC 6749 § 3.1.2)' })
  @ApiProperty({ type: [String] })
  redirectUris!: string[];
}
