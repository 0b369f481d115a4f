import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { Equals, IsBoolean, IsObject, ValidateNested } from 'class-validator';
import { MayBeAbsent } from '@wp/http';

export class SecurityPolicyAttributesDto {
  @ApiProperty({ description: 'Members must have two-factor authentication on.' })
  @IsBoolean()
  requireTwoFactor!: boolean;
}

export class SecurityPolicyDataDto {
  @ApiPropertyOptional({ enum: ['security_policy'] })
  @MayBeAbsent()
  @Equals('security_policy')
  type?: 'security_policy';

  @ApiProperty({ type: () => SecurityPolicyAttributesDto })
  @IsObject()
  @ValidateNested()
  @Type(() => SecurityPolicyAttributesDto)
  attributes!: SecurityPolicyAttributesDto;
}

/** Body of `PATCH /organizations/{id}/security_policy`. */
export class UpdateSecurityPolicyDto {
  @ApiProperty({ type: () => SecurityPolicyDataDto })
  @IsObject()
  @ValidateNested()
  @Type(() => SecurityPolicyDataDto)
  data!: SecurityPolicyDataDto;
}
