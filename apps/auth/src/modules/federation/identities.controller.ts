import { Controller, Delete, Get, HttpCode, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentRequestMeta, UuidPipe, type RequestMeta } from '@wp/http';
import { CurrentPrincipal, type Principal } from '@wp/security';
import { IdentitiesService, type IdentityResource } from './identities.service.js';

/**
 * The signed-in user's provider identities on {auth_url} (header set B, user tokens), under
 * `/users/me` like sessions (docs/auth.md § Sign-in with an OpenID provider).
 */
@ApiTags('sso')
@ApiBearerAuth()
@Controller('users/me/identities')
export class IdentitiesController {
  constructor(private readonly identities: IdentitiesService) {}

  @Get()
  @ApiOperation({ summary: "List the signed-in user's provider identities" })
  list(@CurrentPrincipal() principal: Principal): Promise<{ data: IdentityResource[] }> {
    return this.identities.list(principal);
  }

  /** 204; 400 not a UUID; 404 not an identity of the caller; 409 `LAST_SIGN_IN_METHOD`. */
  @Delete(':identityId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Unlink a provider identity' })
  @ApiNoContentResponse()
  async unlink(
    @CurrentPrincipal() principal: Principal,
    @Param('identityId', UuidPipe) identityId: string,
    @CurrentRequestMeta() meta: RequestMeta,
  ): Promise<void> {
    await this.identities.unlink(principal, identityId, meta);
  }
}
