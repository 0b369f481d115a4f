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

export class AddDomainAttributesDto {
  @ApiProperty({
    description: 'An e-mail domain, e.g. `example.com` (IDN allowed).',
    maxLength: 253,
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
