import { ApiProperty } from '@nestjs/swagger';
import type { DomainRow, SsoSettingsRow } from './sso-domains.repository.js';
import { verificationRecordName, verificationRecordValue } from './domain-name.js';

export class DomainVerificationRecord {
  @ApiProperty({ enum: ['TXT'] })
  type!: 'TXT';

  @ApiProperty({ example: '_wp-verification.example.com' })
  name!: string;

  @ApiProperty({ example: 'wp-verification=3q2-7w…' })
  value!: string;
}

export class DomainAttributes {
  @ApiProperty({ example: 'example.com', description: 'IDNA A-labels, lower case.' })
  domain!: string;

  @ApiProperty()
  verified!: boolean;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  verifiedAt!: string | null;

  @ApiProperty({ type: String, format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ type: () => DomainVerificationRecord, description: 'The TXT record to publish.' })
  verification!: DomainVerificationRecord;
}

export class DomainData {
  @ApiProperty({ enum: ['organization_domain'] })
  type!: 'organization_domain';

  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ type: () => DomainAttributes })
  attributes!: DomainAttributes;
}

/** One domain: `POST …/domains`, `POST …/domains/{domainId}/verify`. */
export class DomainResource {
  @ApiProperty({ type: () => DomainData })
  data!: DomainData;
}

/** `GET …/domains`. */
export class DomainListResource {
  @ApiProperty({ type: () => [DomainData] })
  data!: DomainData[];
}

export class SsoSettingsAttributes {
  @ApiProperty()
  ssoRequired!: boolean;

  @ApiProperty({ enum: ['ADMIN', 'MEMBER', 'VIEWER'] })
  defaultRole!: string;
}

export class SsoSettingsData {
  @ApiProperty({ enum: ['sso_settings'] })
  type!: 'sso_settings';

  @ApiProperty({ description: 'The organization id.' })
  id!: string;

  @ApiProperty({ type: () => SsoSettingsAttributes })
  attributes!: SsoSettingsAttributes;
}

/** `GET` / `PATCH …/sso_settings`. */
export class SsoSettingsResource {
  @ApiProperty({ type: () => SsoSettingsData })
  data!: SsoSettingsData;
}

export function domainData(row: DomainRow): DomainData {
  return {
    type: 'organization_domain',
    id: row.id,
    attributes: {
      domain: row.domain,
      verified: row.verifiedAt !== null,
      verifiedAt: row.verifiedAt ? row.verifiedAt.toISOString() : null,
      createdAt: row.createdAt.toISOString(),
      verification: {
        type: 'TXT',
        name: verificationRecordName(row.domain),
        value: verificationRecordValue(row.verificationToken),
      },
    },
  };
}

export function settingsResource(organizationId: number, s: SsoSettingsRow): SsoSettingsResource {
  return {
    data: {
      type: 'sso_settings',
      id: String(organizationId),
      attributes: { ssoRequired: s.ssoRequired, defaultRole: s.defaultRole },
    },
  };
}
