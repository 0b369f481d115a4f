import { OmitType } from '@nestjs/swagger';
import { CreateConnectionDto } from './connection.dto.js';

/**
 * Body of `PUT /oauth/organizations/{organizationId}/connection` (an OWNER; docs/auth.md
 * § Organization single sign-on): the organization's own OpenID Connect connection, as an
 * operator's connection without a slug (it is `org-<organizationId>`). The client secret is
 * stored sealed and never returned.
 */
export class PutOrgConnectionDto extends OmitType(CreateConnectionDto, ['slug'] as const) {}
