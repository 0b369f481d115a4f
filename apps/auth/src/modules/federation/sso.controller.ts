import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiFoundResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentRequestMeta, NoApiKey, NoStore, Public, type RequestMeta } from '@wp/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SsoFlow, type AuthorizeQuery } from './sso-flow.service.js';

/** A query value as one string: repeated or absent parameters count as absent. */
function single(value: unknown): string | undefined {
  return typeof value === 'string' && value.length <= 2000 ? value : undefined;
}

/**
 * The browser routes of sign-in with an OpenID provider on {auth_url} (docs/auth.md § Sign-in
 * with an OpenID provider). A browser navigates to them, so they take no Api-Key: the client
 * application is `client_id`, held to its registered redirect URIs.
 */
@ApiTags('sso')
@Controller('oauth')
export class SsoController {
  constructor(private readonly flow: SsoFlow) {}

  /**
   * `GET /oauth/authorize?connection&client_id&redirect_uri&state&code_challenge&code_challenge_method=S256`:
   * 302 to the provider; 302 back to `redirect_uri` with `error`, `error_code`,
   * `error_description`, `state` (RFC 6749 § 4.1.2.1) on a bad request or disabled connection;
   * 400 `INVALID_CLIENT` / `REDIRECT_URI_NOT_ALLOWED` (no redirect).
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
  ): Promise<void> {
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
   * used or expired.
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
    const raw = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    const fields = { state: single(query.state), error: single(query.error) };
    await reply.redirect(await this.flow.callback(fields, raw, meta), 302);
  }
}
