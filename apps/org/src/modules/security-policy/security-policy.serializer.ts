import { ApiProperty } from '@nestjs/swagger';

export class SecurityPolicyAttributes {
  @ApiProperty({ description: 'Members must have two-factor authentication on.' })
  requireTwoFactor!: boolean;

  @ApiProperty({
    description:
      'Members (organization or project-only) whose account has two-factor off: shut out while it is required.',
  })
  membersWithoutTwoFactor!: number;
}

export class SecurityPolicyData {
  @ApiProperty({ enum: ['security_policy'] })
  type!: 'security_policy';

  @ApiProperty({ description: 'The organization id.' })
  id!: string;

  @ApiProperty({ type: () => SecurityPolicyAttributes })
  attributes!: SecurityPolicyAttributes;
}

/** `GET` / `PATCH /organizations/{id}/security_policy`. */
export class SecurityPolicyResource {
  @ApiProperty({ type: () => SecurityPolicyData })
  data!: SecurityPolicyData;
}
