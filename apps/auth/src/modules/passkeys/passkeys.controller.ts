import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentRequestMeta, NoStore, UuidPipe, type RequestMeta } from '@wp/http';
import { CurrentClientApp, CurrentPrincipal, type Principal } from '@wp/security';
import { RegisterPasskeyDto, RenamePasskeyDto } from './dto/passkeys.dto.js';
import { PasskeyRegistrationService } from './passkey-registration.service.js';
import { PasskeysService } from './passkeys.service.js';
import {
  PasskeyListResource,
  PasskeyResource,
  WebauthnOptionsResource,
} from './passkeys.serializer.js';

/**
 * Passkeys (WebAuthn credentials) of the signed-in user (header set B, user tokens; agent
 * tokens get 403 `USER_TOKEN_REQUIRED`), under `/users/me` on {auth_url}
 * (docs/auth.md § Passkeys).
 */
@ApiTags('passkeys')
@ApiBearerAuth()
@Controller('users/me/passkeys')
export class PasskeysController {
  constructor(
    private readonly registration: PasskeyRegistrationService,
    private readonly passkeys: PasskeysService,
  ) {}

  /**
   * 200 creation options with a single-use challenge for this account and application; 429
   * `RATE_LIMITED` + `Retry-After` beyond `PASSKEY_OPTIONS_RATE_LIMIT` (default 30) per
   * `PASSKEY_OPTIONS_RATE_WINDOW_SECONDS` (default 60) for the account.
   */
  @Post('options')
  @NoStore()
  @HttpCode(200)
  @ApiOperation({ summary: 'Start registering a passkey' })
  @ApiOkResponse({ type: WebauthnOptionsResource })
  options(
    @CurrentPrincipal() principal: Principal,
    @CurrentClientApp() appId: string,
  ): Promise<WebauthnOptionsResource> {
    return this.registration.options(principal, appId);
  }

  /** 201 passkey; 409 `PASSKEY_ALREADY_REGISTERED`; 422 `PASSKEY_CHALLENGE_INVALID`, `PASSKEY_VERIFICATION_FAILED`. */
  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Register a passkey' })
  @ApiCreatedResponse({ type: PasskeyResource })
  register(
    @CurrentPrincipal() principal: Principal,
    @CurrentClientApp() appId: string,
    @Body() dto: RegisterPasskeyDto,
    @CurrentRequestMeta() meta: RequestMeta,
  ): Promise<PasskeyResource> {
    return this.registration.register(principal, appId, dto, meta);
  }

  @Get()
  @ApiOperation({ summary: 'List passkeys' })
  @ApiOkResponse({ type: PasskeyListResource })
  list(@CurrentPrincipal() principal: Principal): Promise<PasskeyListResource> {
    return this.passkeys.list(principal);
  }

  /** 200 passkey; 404 `NOT_FOUND` (unknown or another account's). */
  @Patch(':passkeyId')
  @ApiOperation({ summary: 'Rename a passkey' })
  @ApiOkResponse({ type: PasskeyResource })
  rename(
    @CurrentPrincipal() principal: Principal,
    @Param('passkeyId', UuidPipe) id: string,
    @Body() dto: RenamePasskeyDto,
  ): Promise<PasskeyResource> {
    return this.passkeys.rename(principal, id, dto.name);
  }

  /** 204; 404 `NOT_FOUND` (unknown or another account's). */
  @Delete(':passkeyId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove a passkey' })
  @ApiNoContentResponse()
  remove(
    @CurrentPrincipal() principal: Principal,
    @Param('passkeyId', UuidPipe) id: string,
    @CurrentRequestMeta() meta: RequestMeta,
  ): Promise<void> {
    return this.passkeys.remove(principal, id, meta);
  }
}
