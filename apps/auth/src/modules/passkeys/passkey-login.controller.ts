import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentRequestMeta, NoStore, Public, type RequestMeta } from '@wp/http';
import { CurrentClientApp } from '@wp/security';
import { SessionResponse, type SessionResource } from '../sessions/session.serializer.js';
import { PasskeyTokenRequestDto } from './dto/passkeys.dto.js';
import { PasskeyLoginService } from './passkey-login.service.js';
import { WebauthnOptionsResource } from './passkeys.serializer.js';

/**
 * Signing in with a passkey (header set K) on {auth_url}, beside `POST /oauth/token` and
 * `POST /oauth/token/mfa` (docs/auth.md § Passkeys, "Sign-in").
 */
@ApiTags('passkeys')
@Controller('oauth')
export class PasskeyLoginController {
  constructor(private readonly login: PasskeyLoginService) {}

  /**
   * 200 request options with a single-use challenge for this client application; 429
   * `RATE_LIMITED` + `Retry-After` beyond `PASSKEY_OPTIONS_RATE_LIMIT` (default 30) per
   * `PASSKEY_OPTIONS_RATE_WINDOW_SECONDS` (default 60) per client address.
   */
  @Post('passkey/options')
  @NoStore()
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'Start a passkey sign-in' })
  @ApiOkResponse({ type: WebauthnOptionsResource })
  options(
    @CurrentClientApp() appId: string,
    @CurrentRequestMeta() meta: RequestMeta,
  ): Promise<WebauthnOptionsResource> {
    return this.login.options(appId, meta.clientAddress ?? 'unknown');
  }

  /** 200 session; 400; 401 `PASSKEY_CHALLENGE_INVALID`, `INVALID_PASSKEY`. */
  @Post('token/passkey')
  @NoStore()
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'Sign in with a passkey' })
  @ApiOkResponse({ type: SessionResponse, description: "The contract's session envelope" })
  token(
    @Body() dto: PasskeyTokenRequestDto,
    @CurrentClientApp() appId: string,
    @CurrentRequestMeta() meta: RequestMeta,
  ): Promise<SessionResource> {
    return this.login.signIn(dto, appId, meta);
  }
}
