import { ToInt } from '@wp/http';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** Query of paged lists (docs/api.md § Limits: default page size 20); `per_page` at most 100. */
export class PageQuery {
  @IsOptional()
  @ToInt()
  @IsInt({ message: 'page must be an integer' })
  @Min(1)
  @Max(1_000_000)
  page?: number;

  @IsOptional()
  @ToInt()
  @IsInt({ message: 'per_page must be an integer' })
  @Min(1)
  @Max(100)
  per_page?: number;
}
