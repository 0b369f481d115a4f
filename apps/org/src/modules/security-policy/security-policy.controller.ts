import { Body, Controller, Get, Param, Patch } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntIdPipe } from '@wp/http';
import { CurrentPrincipal, type Principal } from '@wp/security';
import { UpdateSecurityPolicyDto } from './dto/update-security-policy.dto.js';
import { SecurityPolicyResource } from './security-policy.serializer.js';
import { SecurityPolicyService } from './security-policy.service.js';

/** An organization's security policy on {org_url} (docs/org.md § Two-factor policy). */
@ApiTags('security-policy')
@ApiBearerAuth()
@Controller('organizations')
export class SecurityPolicyController {
  constructor(private readonly policies: SecurityPolicyService) {}

  @Get(':organizationId/security_policy')
  @ApiOperation({ summary: "Get an organization's security policy" })
  @ApiOkResponse({ type: SecurityPolicyResource })
  get(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
  ): Promise<SecurityPolicyResource> {
    return this.policies.get(principal, organizationId);
  }

  /** 200; 400; 403 (not OWNER); 404; 422 `TWO_FACTOR_NOT_ENABLED` (the owner's own account). */
  @Patch(':organizationId/security_policy')
  @ApiOperation({ summary: "Change an organization's security policy" })
  @ApiOkResponse({ type: SecurityPolicyResource })
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Body() dto: UpdateSecurityPolicyDto,
  ): Promise<SecurityPolicyResource> {
    return this.policies.update(principal, organizationId, dto.data.attributes.requireTwoFactor);
  }
}
