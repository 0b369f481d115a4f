import { Controller, Delete, Get, HttpCode, Param } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentRequestMeta, UuidPipe, type RequestMeta } from '@wp/http';
import { CurrentPrincipal, type Principal } from '@wp/security';
import { SessionsEndedResource, UserSessionListResource } from './user-sessions.serializer.js';
import { UserSessionsService } from './user-sessions.service.js';

/**
 * The signed-in user's sessions on {auth_url} (header set B, user tokens), under `/users/me`
 * because the gateway routes `/v1/api/users/*` to auth and `/v1/api/me/*` to org
 * (docs/auth.md § Session management).
 */
@ApiTags('sessions')
@ApiBearerAuth()
@Controller('users/me/sessions')
export class UserSessionsController {
  constructor(private readonly sessions: UserSessionsService) {}

  @Get()
  @ApiOperation({ summary: "List the signed-in user's sessions" })
  @ApiOkResponse({ type: UserSessionListResource })
  list(@CurrentPrincipal() principal: Principal): Promise<UserSessionListResource> {
    return this.sessions.list(principal);
  }

  /** 204; 400 id not a UUID; 404 no such live session of the caller. */
  @Delete(':sessionId')
  @HttpCode(204)
  @ApiOperation({ summary: 'End a session' })
  @ApiNoContentResponse()
  async end(
    @CurrentPrincipal() principal: Principal,
    @Param('sessionId', UuidPipe) sessionId: string,
    @CurrentRequestMeta() meta: RequestMeta,
  ): Promise<void> {
    await this.sessions.end(principal, sessionId, meta);
  }

  @Delete()
  @HttpCode(200)
  @ApiOperation({ summary: 'End every other session' })
  @ApiOkResponse({ type: SessionsEndedResource })
  endOthers(
    @CurrentPrincipal() principal: Principal,
    @CurrentRequestMeta() meta: RequestMeta,
  ): Promise<SessionsEndedResource> {
    return this.sessions.endOthers(principal, meta);
  }
}
