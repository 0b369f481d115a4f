import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  Equals,
  IsBoolean,
  IsIn,
  IsObject,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { MayBeAbsent } from '@wp/http';

/**
 * The shape of a domain name as the document states it (labels of letters, digits and inner
 * hyphens, Unicode letters allowed for internationalised names, an alphabetic or `xn--` last
 * label); `normalizeDomain` (domain-name.ts) is the full check.
 */
const DOMAIN_PATTERN =
  '^([A-Za-z0-9\\u00C0-\\uFFFF]([A-Za-z0-9\\u00C0-\\uFFFF-]{0,61}[A-Za-z0-9\\u00C0-\\uFFFF])?\\.)+([A-Za-z\\u00C0-\\uFFFF]{2,63}|xn--[A-Za-z0-9-]{1,59})\\.?$';

export class AddDomainAttributesDto {
  @ApiProperty({
    description:
      'An e-mail domain, e.g. `example.com`: at least two labels, letters, digits and inner hyphens, the last label alphabetic; internationalised names in Unicode or as `xn--` A-labels (stored as A-labels, lower case).',
    maxLength: 253,
    pattern: DOMAIN_PATTERN,
    example: 'example.com',
  })
  @IsString()
  @MaxLength(253)
  domain!: string;
}

export class AddDomainDataDto {
  @ApiPropertyOptional({ enum: ['organization_domain'] })
  @MayBeAbsent()
  @Equals('organization_domain')
  type?: 'organization_domain';

  @ApiProperty({ type: () => AddDomainAttributesDto })
  @IsObject()
  @ValidateNested()
  @Type(() => AddDomainAttributesDto)
  attributes!: AddDomainAttributesDto;
}

/** Body of `POST /organizations/{id}/domains`. */
export class AddDomainDto {
  @ApiProperty({ type: () => AddDomainDataDto })
  @IsObject()
  @ValidateNested()
  @Type(() => AddDomainDataDto)
  data!: AddDomainDataDto;
}

/** Roles a just-in-time member may get: never OWNER. */
export const SSO_DEFAULT_ROLES = ['ADMIN', 'MEMBER', 'VIEWER'] as const;

export class SsoSettingsAttributesDto {
  @ApiPropertyOptional({
    description: 'Accounts at verified domains must sign in through the organization connection.',
  })
  @MayBeAbsent()
  @IsBoolean()
  ssoRequired?: boolean;

  @ApiPropertyOptional({ enum: SSO_DEFAULT_ROLES, description: 'Role of just-in-time members.' })
  @MayBeAbsent()
  @IsIn(SSO_DEFAULT_ROLES)
  defaultRole?: (typeof SSO_DEFAULT_ROLES)[number];
}

export class SsoSettingsDataDto {
  @ApiPropertyOptional({ enum: ['sso_settings'] })
  @MayBeAbsent()
  @Equals('sso_settings')
  type?: 'sso_settings';

  @ApiProperty({ type: () => SsoSettingsAttributesDto })
  @IsObject()
  @ValidateNested()
  @Type(() => SsoSettingsAttributesDto)
  attributes!: SsoSettingsAttributesDto;
}

/** Body of `PATCH /organizations/{id}/sso_settings`. */
export class UpdateSsoSettingsDto {
  @ApiProperty({ type: () => SsoSettingsDataDto })
  @IsObject()
  @ValidateNested()
  @Type(() => SsoSettingsDataDto)
  data!: SsoSettingsDataDto;
}
