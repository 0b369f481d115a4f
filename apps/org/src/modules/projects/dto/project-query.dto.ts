import { IsBoolean, IsIn } from 'class-validator';
import { MayBeAbsent, ToBoolean, ToList } from '@wp/http';

export const PROJECT_INCLUDES = ['users', 'apiKeys', 'llmApiKeys', 'sentinelPasses'] as const;
export type ProjectInclude = (typeof PROJECT_INCLUDES)[number];

/**
 * Query of `GET …/projects/{projectId}` (docs/api.md § Projects): `secret` boolean adds
 * `meta.secrets` (ADMIN/OWNER only), `include` comma list (an unknown value is a 400).
 */
export class ProjectQueryDto {
  @MayBeAbsent()
  @ToBoolean()
  @IsBoolean({ message: 'must be true or false' })
  secret?: boolean;

  @MayBeAbsent()
  @ToList()
  @IsIn(PROJECT_INCLUDES, {
    each: true,
    message: `each value must be one of ${PROJECT_INCLUDES.join(', ')}`,
  })
  include?: ProjectInclude[];
}
