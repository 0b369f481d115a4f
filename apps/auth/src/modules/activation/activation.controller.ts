import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { CurrentRequestMeta, NoStore, Public, type RequestMeta, UuidPipe } from '@wp/http';
import { CurrentClientApp } from '@wp/security';
import type { SessionResource } from '../sessions/session.serializer.js';
import type { ResendActivationResource } from './activation.serializer.js';
import { ActivationService } from './activation.service.js';
import { ActivateDto } from './dto/activate.dto.js';

/**
 * Activation on {auth_url} (docs/api.md § Accounts and sessions): all three routes use header set
 * K. Errors: 400 malformed `userId` or `code`; 404 unknown account; 422 `ALREADY_ACTIVE`,
 * `ACTIVATION_METHOD_MISMATCH`, `INVALID_CODE`, `CODE_EXPIRED`, `CODE_LOCKED`; 429 resend limit.
 */
@Controller('users')
export class ActivationController {
  constructor(private readonly activation: ActivationService) {}

  /** `POST /users/{userId}/activate/email`: 200 session. */
  @Post(':userId/activate/email')
  @NoStore()
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'Activate an account with the emailed code' })
  activateByEmail(
    @Param('userId', UuidPipe) userId: string,
    @Body() dto: ActivateDto,
    @CurrentClientApp() appId: string,
    @CurrentRequestMeta() meta: RequestMeta,
  ): Promise<SessionResource> {
    return this.activation.activate(userId, 'email', dto.code, appId, meta);
  }

  /** `POST /users/{userId}/activate/phone`: 200 session. */
  @Post(':userId/activate/phone')
  @NoStore()
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'Activate an account with the texted code' })
  // jscpd:ignore-start: two routes of the contract (activate by email, by phone) with the same parameters.
  activateByPhone(
    @Param('userId', UuidPipe) userId: string,
    @Body() dto: ActivateDto,
    @CurrentClientApp() appId: string,
    @CurrentRequestMeta() meta: RequestMeta,
  ): Promise<SessionResource> {
    return this.activation.activate(userId, 'phone', dto.code, appId, meta);
    // jscpd:ignore-end
  }

  /** `POST /users/{userId}/resend_activation`: 200 {@link ResendActivationResource}. */
  @Post(':userId/resend_activation')
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'Send the activation code again' })
  resend(@Param('userId', UuidPipe) userId: string): Promise<ResendActivationResource> {
    return this.activation.resend(userId);
  }
}
