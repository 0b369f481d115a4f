import { Body, Controller, Get, HttpCode, Post, Req } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  getSchemaPath,
} from '@nestjs/swagger';
import {
  CurrentRequestMeta,
  NoStore,
  Public,
  type RequestMeta,
  UnauthenticatedError,
} from '@wp/http';
import {
  CurrentClientApp,
  CurrentPrincipal,
  isWellFormedToken,
  type Principal,
} from '@wp/security';
import type { FastifyRequest } from 'fastify';
import { AgentTokenService, type AgentSessionResource } from '../sentinel/agent-token.service.js';
import { MfaTokenRequestDto } from '../two-factor/dto/two-factor.dto.js';
import { SsoCodeExchange } from '../federation/sso-code-exchange.js';
import {
  AuthorizationCodeGrantDto,
  ClientCredentialsGrantDto,
  PasswordGrantDto,
  RefreshRequestDto,
  TokenRequestDto,
} from './dto/token-request.dto.js';
import { LoginService } from './login.service.js';
import { MfaLoginService } from './mfa-login.service.js';
import { RefreshService } from './refresh.service.js';
import { SessionResponse, type SessionResource } from './session.serializer.js';
import { UnsupportedGrantTypeError } from './sessions.errors.js';
import { SessionsService } from './sessions.service.js';
import { toTokenInfo, type TokenInfoResource } from './token-info.serializer.js';

/** Sessions on {auth_url} (docs/api.md § Accounts and sessions, Authentication 2-6). */
@Controller('oauth')
export class OAuthController {
  constructor(
    private readonly login: LoginService,
    private readonly refreshes: RefreshService,
    private readonly sessions: SessionsService,
    private readonly agents: AgentTokenService,
    private readonly mfaLogin: MfaLoginService,
    private readonly ssoCodes: SsoCodeExchange,
  ) {}

  /**
   * `POST /oauth/token` (K): 200 session; 400 validation / `UNSUPPORTED_GRANT_TYPE`;
   * 401 `INVALID_CREDENTIALS`; 403 `ACTIVATION_REQUIRED`; 429 `RATE_LIMITED` + Retry-After;
   * 403 `TWO_FACTOR_REQUIRED` with `meta.challenge_token` for an account with two-factor on
   * (then `POST /oauth/token/mfa`; docs/auth.md § Two-factor login).
   * `grant_type=client_credentials` (Sentinel Pass agents): 200 agent session without refresh
   * token; 401 `INVALID_CLIENT`; 403 `REFERER_NOT_ALLOWED`.
   * `grant_type=authorization_code` (a provider sign-in's one-time code): 200 session; 400
   * `INVALID_GRANT` (docs/auth.md § Sign-in with an OpenID provider).
   */
  @Post('token')
  @NoStore()
  @Public()
  @HttpCode(200)
  @ApiExtraModels(PasswordGrantDto, ClientCredentialsGrantDto, AuthorizationCodeGrantDto)
  @ApiConsumes('application/json', 'application/x-www-form-urlencoded')
  @ApiBody({
    description:
      'One grant: `password` (the default when `grant_type` is absent), `client_credentials`, ' +
      'or `authorization_code` (the one-time code of a sign-in with an OpenID provider, with ' +
      'the PKCE `code_verifier` and the exact `redirect_uri`; 400 `INVALID_GRANT`). ' +
      'Fields of the other grant are ignored. With `client_credentials`, `client_id` and ' +
      '`client_secret` go in the body or, as RFC 6749 § 2.3.1 allows, in an HTTP Basic ' +
      '`Authorization` header (`client_id:client_secret`, form-encoded, base64), never both.',
    // anyOf, not oneOf: the grants exclude each other by `grant_type`, but it is optional in the
    // password grant, so a linter cannot prove the branches disjoint.
    schema: {
      anyOf: [
        { $ref: getSchemaPath(PasswordGrantDto) },
        { $ref: getSchemaPath(ClientCredentialsGrantDto) },
        { $ref: getSchemaPath(AuthorizationCodeGrantDto) },
      ],
    },
  })
  @ApiOperation({ summary: 'Log in or exchange client credentials for tokens' })
  async token(
    @Body() dto: TokenRequestDto,
    @CurrentClientApp() appId: string,
    @Req() request: FastifyRequest,
    @CurrentRequestMeta() meta: RequestMeta,
  ): Promise<SessionResource | AgentSessionResource> {
    if (dto.grant_type === 'client_credentials') {
      const { referer, origin } = request.headers;
      return this.agents.exchange({
        clientId: dto.client_id,
        clientSecret: dto.client_secret,
        appId,
        referer: (typeof referer === 'string' ? referer : undefined) ?? origin ?? null,
        clientAddress: request.ip ?? null,
        startedAt: performance.now(),
      });
    }
    if (dto.grant_type === 'authorization_code') {
      const { user, connectionId } = await this.ssoCodes.redeem(dto, appId);
      return this.sessions.open(user, appId, meta, { connectionId });
    }
    if (dto.grant_type !== undefined && dto.grant_type !== 'password') {
      throw new UnsupportedGrantTypeError();
    }
    return this.login.login(dto.username, dto.password, appId, meta);
  }

  /**
   * `POST /oauth/token/mfa` (K): the second step of a login with two-factor on — the challenge
   * of `TWO_FACTOR_REQUIRED` and a code (or a recovery code) → 200 session; 400; 401
   * `MFA_CHALLENGE_INVALID`, `INVALID_TWO_FACTOR_CODE` (`meta.attemptsRemaining`); 429.
   */
  @Post('token/mfa')
  @NoStore()
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'Complete a login with a second factor' })
  @ApiOkResponse({ type: SessionResponse, description: "The contract's session envelope" })
  tokenMfa(
    @Body() dto: MfaTokenRequestDto,
    @CurrentClientApp() appId: string,
    @CurrentRequestMeta() meta: RequestMeta,
  ): Promise<SessionResource> {
    return this.mfaLogin.complete(dto, appId, meta);
  }

  /**
   * `POST /oauth/token/refresh` (K): 200 session with a new `accessToken` and `refreshToken`;
   * 401 `TOKEN_MALFORMED`, `REFRESH_TOKEN_INVALID` or `REFRESH_TOKEN_REUSED`.
   */
  @Post('token/refresh')
  @NoStore()
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'Refresh a session' })
  refresh(
    @Body() dto: RefreshRequestDto,
    @CurrentRequestMeta() meta: RequestMeta,
  ): Promise<SessionResource> {
    if (!isWellFormedToken(dto.refresh_token)) {
      throw new UnauthenticatedError('The refresh token is malformed.', 'TOKEN_MALFORMED');
    }
    return this.refreshes.refresh(dto.refresh_token, meta);
  }

  /**
   * `GET /oauth/token/revoke` (B): 200 `{"revoked": true}`; the access token and its session
   * are refused by every service from now on. An expired, revoked or invalid token: 401 (the
   * shared guard), which per docs/api.md § Authentication 6 also means the session is over.
   */
  @Get('token/revoke')
  @ApiOperation({ summary: 'Log out' })
  async revoke(@CurrentPrincipal() principal: Principal): Promise<{ revoked: true }> {
    await this.sessions.logout(principal);
    return { revoked: true };
  }

  /** `GET /oauth/token/info` (B): 200 with the token's claims; 401 if expired or invalid. */
  @Get('token/info')
  @ApiOperation({ summary: 'Get the claims of the access token' })
  info(@CurrentPrincipal() principal: Principal): TokenInfoResource {
    // The guard verified the token (or found it in its verified-token cache) and kept its claims.
    return toTokenInfo(principal.claims, Date.now() / 1000);
  }
}
