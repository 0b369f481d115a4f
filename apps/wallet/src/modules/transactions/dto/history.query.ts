import { MayBeAbsent, ToInt } from '@wp/http';
import { IsInt, Max, Min } from 'class-validator';

/** Query of paged lists (docs/api.md § Limits: default page size 20); `per_page` at most 100. */
export class PageQuery {
  @MayBeAbsent()
  @ToInt()
  @IsInt({ message: 'page must be an integer' })
  @Min(1)
  @Max(1_000_000)
  page?: number;

  @MayBeAbsent()
  @ToInt()
  @IsInt({ message: 'per_page must be an integer' })
  @Min(1)
  @Max(100)
  per_page?: number;
}
