import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { CurrentRequestMeta, Public, type RequestMeta } from '@wp/http';
import { CurrentPrincipal, type Principal } from '@wp/security';
import { ChangePasswordDto, ResetPasswordDto, ResetRequestDto } from './dto/password.dto.js';
import { PasswordChangeService } from './password-change.service.js';
import { PasswordResetService } from './password-reset.service.js';
import type { PasswordOperationResource } from './password-reset.serializer.js';

/** Password operations on {auth_url} (docs/api.md § Accounts and sessions). */
@Controller('users/password')
export class PasswordResetController {
  constructor(
    private readonly resets: PasswordResetService,
    private readonly changes: PasswordChangeService,
  ) {}

  /** `POST /users/password/reset_request` (K): always the same 200 body; 400; 429 per email. */
  @Post('reset_request')
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'Request a password reset email' })
  requestReset(@Body() dto: ResetRequestDto): Promise<PasswordOperationResource> {
    return this.resets.requestReset(dto.email);
  }

  /** `POST /users/password/reset` (K): 200; 400; 422 `RESET_TOKEN_INVALID`. */
  @Post('reset')
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'Reset the password with an emailed token' })
  reset(
    @Body() dto: ResetPasswordDto,
    @CurrentRequestMeta() meta: RequestMeta,
  ): Promise<PasswordOperationResource> {
    return this.resets.reset(dto.email, dto.new_password, dto.reset_token, meta);
  }

  /** `POST /users/password/change` (B): 200; 400; 401; 422 `CURRENT_PASSWORD_INVALID`; 429. */
  @Post('change')
  @HttpCode(200)
  @ApiOperation({ summary: 'Change the password' })
  change(
    @CurrentPrincipal() principal: Principal,
    @Body() dto: ChangePasswordDto,
    @CurrentRequestMeta() meta: RequestMeta,
  ): Promise<PasswordOperationResource> {
    return this.changes.change(principal, dto.new_password, dto.current_password, meta);
  }
}
