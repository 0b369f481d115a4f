import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentRequestMeta, NoStore, type RequestMeta } from '@wp/http';
import { CurrentPrincipal, type Principal } from '@wp/security';
import { ConfirmTwoFactorDto, SecondFactorDto, StartTwoFactorDto } from './dto/two-factor.dto.js';
import { TwoFactorEnrolmentService } from './two-factor-enrolment.service.js';
import { TwoFactorManagementService } from './two-factor-management.service.js';
import {
  RecoveryCodesResource,
  TwoFactorEnrolmentResource,
  TwoFactorStatusResource,
} from './two-factor.serializer.js';

/**
 * TOTP two-factor authentication of the signed-in user (header set B, user tokens; agent tokens
 * get 403 `USER_TOKEN_REQUIRED`), on {auth_url} under `/users/me` — the gateway routes
 * `/v1/api/users/*` to auth (docs/auth.md § Two-factor authentication).
 */
@ApiTags('two-factor')
@ApiBearerAuth()
@Controller('users/me/two_factor')
export class TwoFactorController {
  constructor(
    private readonly enrolment: TwoFactorEnrolmentService,
    private readonly management: TwoFactorManagementService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Get the two-factor state' })
  @ApiOkResponse({ type: TwoFactorStatusResource })
  status(@CurrentPrincipal() principal: Principal): Promise<TwoFactorStatusResource> {
    return this.enrolment.status(principal);
  }

  /** 201 enrolment; 409 `TWO_FACTOR_ALREADY_ENABLED`; 422 `CURRENT_PASSWORD_INVALID`; 429. */
  @Post()
  @NoStore()
  @HttpCode(201)
  @ApiOperation({ summary: 'Start two-factor enrolment' })
  @ApiCreatedResponse({ type: TwoFactorEnrolmentResource })
  start(
    @CurrentPrincipal() principal: Principal,
    @Body() dto: StartTwoFactorDto,
  ): Promise<TwoFactorEnrolmentResource> {
    return this.enrolment.start(principal, dto.password);
  }

  /** 200 recovery codes; 409 not started / already on; 422 `INVALID_TWO_FACTOR_CODE`. */
  @Post('confirm')
  @NoStore()
  @HttpCode(200)
  @ApiOperation({ summary: 'Confirm two-factor enrolment' })
  @ApiOkResponse({ type: RecoveryCodesResource })
  confirm(
    @CurrentPrincipal() principal: Principal,
    @Body() dto: ConfirmTwoFactorDto,
    @CurrentRequestMeta() meta: RequestMeta,
  ): Promise<RecoveryCodesResource> {
    return this.enrolment.confirm(principal, dto.code, meta);
  }

  /** 200 state (off); 409 `TWO_FACTOR_NOT_ENABLED`; 422 `INVALID_TWO_FACTOR_CODE`; 429. */
  @Post('disable')
  @HttpCode(200)
  @ApiOperation({ summary: 'Turn two-factor off' })
  @ApiOkResponse({ type: TwoFactorStatusResource })
  disable(
    @CurrentPrincipal() principal: Principal,
    @Body() dto: SecondFactorDto,
    @CurrentRequestMeta() meta: RequestMeta,
  ): Promise<TwoFactorStatusResource> {
    return this.management.disable(principal, dto, meta);
  }

  /** 200 new codes; 409 `TWO_FACTOR_NOT_ENABLED`; 422 `INVALID_TWO_FACTOR_CODE`; 429. */
  @Post('recovery_codes')
  @NoStore()
  @HttpCode(200)
  @ApiOperation({ summary: 'Replace the recovery codes' })
  @ApiOkResponse({ type: RecoveryCodesResource })
  regenerate(
    @CurrentPrincipal() principal: Principal,
    @Body() dto: SecondFactorDto,
    @CurrentRequestMeta() meta: RequestMeta,
  ): Promise<RecoveryCodesResource> {
    return this.management.regenerateRecoveryCodes(principal, dto, meta);
  }
}
