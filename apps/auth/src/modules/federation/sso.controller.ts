import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiFoundResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentRequestMeta, NoApiKey, NoStore, Public, type RequestMeta } from '@wp/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RateLimits } from '../rate-limits/rate-limits.service.js';
import { SsoFlow, type AuthorizeQuery } from './sso-flow.service.js';

/** A query value as one string: repeated or absent parameters count as absent. */
function single(value: unknown): string | undefined {
  return typeof value === 'string' && value.length <= 2000 ? value : undefined;
}

/**
 * The browser routes of sign-in with an OpenID provider on {auth_url} (docs/auth.md § Sign-in
 * with an OpenID provider). A browser navigates to them, so they take no Api-Key: the client
 * application is `client_id`, held to its registered redirect URIs.
 *
 * Each is rate limited per client address (`OIDC_SIGN_IN_RATE_LIMIT` per
 * `OIDC_SIGN_IN_RATE_WINDOW_SECONDS`, the routes counted apart) before any other work: beyond it,
 * 429 `RATE_LIMITED` with `Retry-After` in JSON:API, as every rate limit of auth answers — never
 * a redirect, since nothing of the request has been checked yet (an unchecked `redirect_uri` is
 * no place to send a browser).
 */
@ApiTags('sso')
@Controller('oauth')
export class SsoController {
  constructor(
    private readonly flow: SsoFlow,
    private readonly limits: RateLimits,
  ) {}

  /**
   * `GET /oauth/authorize?connection&client_id&redirect_uri&state&code_challenge&code_challenge_method=S256`:
   * 302 to the provider; 302 back to `redirect_uri` with `error`, `error_code`,
   * `error_description`, `state` (RFC 6749 § 4.1.2.1) on a bad request or disabled connection;
   * 400 `INVALID_CLIENT` / `REDIRECT_URI_NOT_ALLOWED` (no redirect); 429 `RATE_LIMITED` +
   * `Retry-After` in JSON:API, no redirect, beyond `OIDC_SIGN_IN_RATE_LIMIT` (default 30) per
   * `OIDC_SIGN_IN_RATE_WINDOW_SECONDS` (default 60) per client address.
   */
  @Get('authorize')
  @NoApiKey()
  @Public()
  @NoStore()
  @ApiOperation({ summary: 'Start a sign-in with an OpenID provider (browser)' })
  @ApiQuery({
    name: 'connection',
    description: 'The connection slug',
    schema: { type: 'string', pattern: '^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$' },
  })
  @ApiQuery({ name: 'client_id', type: String, format: 'uuid' })
  @ApiQuery({ name: 'redirect_uri', type: String, format: 'uri' })
  @ApiQuery({ name: 'state', schema: { type: 'string', pattern: '^[\\x20-\\x7E]{1,500}$' } })
  @ApiQuery({
    name: 'code_challenge',
    description: 'BASE64URL(SHA-256(code_verifier)), RFC 7636 § 4.2',
    schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' },
  })
  @ApiQuery({ name: 'code_challenge_method', enum: ['S256'] })
  @ApiQuery({ name: 'response_type', enum: ['code'], required: false })
  @ApiFoundResponse({ description: 'To the provider, or back to redirect_uri with an error' })
  async authorize(
    @Query() query: Record<string, unknown>,
    @Res() reply: FastifyReply,
    @CurrentRequestMeta() meta: RequestMeta,
  ): Promise<void> {
    await this.limits.consume('oidc_sign_in', `authorize:${meta.clientAddress ?? 'unknown'}`);
    const fields: AuthorizeQuery = {
      connection: single(query.connection),
      client_id: single(query.client_id),
      redirect_uri: single(query.redirect_uri),
      state: single(query.state),
      code_challenge: single(query.code_challenge),
      code_challenge_method: single(query.code_challenge_method),
      response_type: single(query.response_type),
    };
    await reply.redirect(await this.flow.authorize(fields), 302);
  }

  /**
   * `GET /oauth/callback` (the provider's redirect): 302 to the client's `redirect_uri` with
   * `code` + `state`, or with an error; 400 `SSO_STATE_INVALID` when the state is unknown,
   * used or expired; 429 `RATE_LIMITED` + `Retry-After` in JSON:API, no redirect, beyond
   * `OIDC_SIGN_IN_RATE_LIMIT` (default 30) per `OIDC_SIGN_IN_RATE_WINDOW_SECONDS` (default 60)
   * per client address (counted apart from `/oauth/authorize`).
   */
  @Get('callback')
  @NoApiKey()
  @Public()
  @NoStore()
  @ApiOperation({ summary: 'Return from an OpenID provider (browser)' })
  @ApiFoundResponse({ description: 'Back to the client with a one-time code or an error' })
  async callback(
    @Query() query: Record<string, unknown>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @CurrentRequestMeta() meta: RequestMeta,
  ): Promise<void> {
    await this.limits.consume('oidc_sign_in', `callback:${meta.clientAddress ?? 'unknown'}`);
    const raw = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    const fields = { state: single(query.state), error: single(query.error) };
    await reply.redirect(await this.flow.callback(fields, raw, meta), 302);
  }
}
