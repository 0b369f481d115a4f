import { IsBoolean, IsIn } from 'class-validator';
import { MayBeAbsent, ToBoolean, ToList } from '@wp/http';

export const ORGANIZATION_INCLUDES = ['users', 'projects', 'organization_memberships'] as const;
export type OrganizationInclude = (typeof ORGANIZATION_INCLUDES)[number];

/**
 * Query of `GET /organizations/{id}` (docs/api.md § Organizations): `include` comma list (an
 * unknown value is a 400), `forceRefresh` boolean — accepted and validated; the server never
 * answers stale data (docs/org.md § Caching), so it changes nothing.
 */
export class OrganizationQueryDto {
  @MayBeAbsent()
  @ToList()
  @IsIn(ORGANIZATION_INCLUDES, {
    each: true,
    message: `each value must be one of ${ORGANIZATION_INCLUDES.join(', ')}`,
  })
  include?: OrganizationInclude[];

  @MayBeAbsent()
  @ToBoolean()
  @IsBoolean({ message: 'must be true or false' })
  forceRefresh?: boolean;
}
