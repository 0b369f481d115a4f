import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { ROLES, type Role } from '@wp/contracts';
import { CaseInsensitive, IsIsoInstant, MayBeAbsent, ToBoolean, ToInt } from '@wp/http';
import { PROJECT_SORT_VALUES, type ProjectSortValue } from '../../tenants/project-list.js';

/**
 * `owner,ADMIN` (or a repeated parameter) → `['OWNER', 'ADMIN']`; non-strings left for the
 * validator.
 */
const RoleList = () =>
  Transform(({ value }: { value: unknown }) => {
    const parts = Array.isArray(value) ? (value as unknown[]) : [value];
    return parts
      .flatMap((p): unknown[] => (typeof p === 'string' ? p.split(',') : [p]))
      .map((p) => (typeof p === 'string' ? p.trim().toUpperCase() : p))
      .filter((p) => p !== '');
  });

/**
 * Query of `GET /organizations/{id}/projects` (docs/api.md § Projects; docs/org.md § Project list).
 * Every value is validated; anything malformed is a 400 naming the parameter.
 */
export class ProjectListQueryDto {
  /** Comma list of the caller's effective roles to keep (either case). */
  @MayBeAbsent()
  @RoleList()
  @CaseInsensitive()
  @IsIn(ROLES, { each: true, message: `each value must be one of ${ROLES.join(', ')}` })
  user_role?: Role[];

  @MayBeAbsent()
  @ToBoolean()
  @IsBoolean({ message: 'must be true or false' })
  has_wallet?: boolean;

  @MayBeAbsent()
  @ToBoolean()
  @IsBoolean({ message: 'must be true or false' })
  has_tools?: boolean;

  @MayBeAbsent()
  @ToBoolean()
  @IsBoolean({ message: 'must be true or false' })
  has_notebooks?: boolean;

  @MayBeAbsent()
  @ToInt()
  @IsInt({ message: 'must be an integer' })
  @Min(0)
  @Max(1_000_000)
  min_members?: number;

  @MayBeAbsent()
  @ToInt()
  @IsInt({ message: 'must be an integer' })
  @Min(0)
  @Max(1_000_000)
  max_members?: number;

  /** Case-insensitive substring of the name. */
  @MayBeAbsent()
  @IsString()
  @MaxLength(200)
  search?: string;

  @MayBeAbsent()
  @IsIn(PROJECT_SORT_VALUES, { message: `must be one of ${PROJECT_SORT_VALUES.join(', ')}` })
  sort?: ProjectSortValue;

  @MayBeAbsent()
  @IsIsoInstant({ message: 'must be an ISO 8601 date (YYYY-MM-DD) or date-time' })
  created_after?: string;

  @MayBeAbsent()
  @IsIsoInstant({ message: 'must be an ISO 8601 date (YYYY-MM-DD) or date-time' })
  created_before?: string;

  /** Accepted and validated; the server never answers stale data (docs/org.md § Caching). */
  @MayBeAbsent()
  @ToBoolean()
  @IsBoolean({ message: 'must be true or false' })
  forceRefresh?: boolean;
}
