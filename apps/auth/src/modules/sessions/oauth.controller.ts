import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { Public } from '@wp/http';
import { CurrentClientApp } from '@wp/security';
import { PasswordGrantDto } from './dto/token-request.dto.js';
import { LoginService } from './login.service.js';
import type { SessionResource } from './session.serializer.js';

@Controller('oauth')
export class OAuthController {
  constructor(private readonly login: LoginService) {}

  /** `POST /oauth/token` (header set K): 200 session; 401 `INVALID_CREDENTIALS`; 403 `ACTIVATION_REQUIRED`. */
  @Post('token')
  @Public()
  @HttpCode(200)
  token(
    @Body() dto: PasswordGrantDto,
    @CurrentClientApp() appId: string,
  ): Promise<SessionResource> {
    return this.login.login(dto.username, dto.password, appId);
  }
}
