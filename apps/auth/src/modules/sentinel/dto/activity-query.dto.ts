import { IsIsoInstant, MayBeAbsent, ToBoolean, ToInt } from '@wp/http';
import { IsBoolean, IsIn, IsInt, IsString, IsUUID, Max, MaxLength, Min } from 'class-validator';

export const ACTIVITY_TYPES = ['api_request', 'token_generation', 'error'] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

/**
 * `sort_by` values of the logs endpoint → column (docs/auth.md § Activity endpoints).
 * `created_at` and `createdAt` are aliases of `timestamp`: the names other activity APIs give an
 * entry's time. Anything else is 400.
 */
export const SORT_COLUMNS = {
  timestamp: 'occurred_at',
  created_at: 'occurred_at',
  createdAt: 'occurred_at',
  latency_ms: 'latency_ms',
  status_code: 'status_code',
  endpoint: 'endpoint',
  activity_type: 'activity_type',
} as const;
export type SortBy = keyof typeof SORT_COLUMNS;

/** Filters shared by logs and export. */
export class ActivityFilterDto {
  @IsUUID()
  agent_user_id!: string;

  @MayBeAbsent()
  @IsIsoInstant()
  start_date?: string;

  @MayBeAbsent()
  @IsIsoInstant()
  end_date?: string;

  @MayBeAbsent()
  @IsIn(ACTIVITY_TYPES)
  activity_type?: ActivityType;

  @MayBeAbsent()
  @IsString()
  @MaxLength(512)
  endpoint?: string;

  @MayBeAbsent()
  @ToBoolean()
  @IsBoolean()
  success?: boolean;

  @MayBeAbsent()
  @IsIn(['asc', 'desc'])
  sort_order?: 'asc' | 'desc';
}

/** `GET /oauth/agent/activity/logs`. */
export class ActivityLogsQueryDto extends ActivityFilterDto {
  @MayBeAbsent()
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  page?: number;

  @MayBeAbsent()
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(100)
  per_page?: number;

  @MayBeAbsent()
  @IsIn(Object.keys(SORT_COLUMNS))
  sort_by?: SortBy;
}

/** `GET /oauth/agent/activity/export`. */
export class ActivityExportQueryDto extends ActivityFilterDto {
  @MayBeAbsent()
  @IsIn(['json', 'csv', 'jsonl'])
  format?: 'json' | 'csv' | 'jsonl';
}

/** `GET /oauth/agent/activity/metrics`. */
export class ActivityMetricsQueryDto {
  @IsUUID()
  agent_user_id!: string;

  @MayBeAbsent()
  @IsIsoInstant()
  start_date?: string;

  @MayBeAbsent()
  @IsIsoInstant()
  end_date?: string;

  @MayBeAbsent()
  @IsIn(['hour', 'day', 'week'])
  group_by?: 'hour' | 'day' | 'week';
}
