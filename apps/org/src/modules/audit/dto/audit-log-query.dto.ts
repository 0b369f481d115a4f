import { ApiPropertyOptional } from '@nestjs/swagger';
import { AUDIT_ACTIONS, type AuditAction } from '@wp/contracts';
import { IsIsoInstant, MayBeAbsent, PageCursorField, PageLimitField, ToList } from '@wp/http';
import { ArrayMaxSize, IsIn, IsString, MaxLength } from 'class-validator';

/** Filters of `GET /organizations/{id}/audit_log` and its export (docs/org.md § Audit log). */
export class AuditLogFilterDto {
  @ApiPropertyOptional({ description: 'Entries of this actor (a user id or Sentinel Pass id).' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(200)
  actor?: string;

  @ApiPropertyOptional({
    description: 'Comma list of actions (e.g. `user.signed_in,member.added`).',
    enum: AUDIT_ACTIONS,
    isArray: true,
  })
  @MayBeAbsent()
  @ToList()
  @ArrayMaxSize(AUDIT_ACTIONS.length)
  @IsIn(AUDIT_ACTIONS, { each: true, message: 'each action must be a known audit action' })
  action?: AuditAction[];

  @ApiPropertyOptional({
    description: 'From this instant (ISO 8601 date or date-time), inclusive.',
  })
  @MayBeAbsent()
  @IsIsoInstant()
  start_date?: string;

  @ApiPropertyOptional({
    description: 'Up to this instant, inclusive; a calendar date covers that whole UTC day.',
  })
  @MayBeAbsent()
  @IsIsoInstant()
  end_date?: string;
}

/** `GET /organizations/{id}/audit_log`: filters plus cursor paging. */
export class AuditLogQueryDto extends AuditLogFilterDto {
  @PageLimitField()
  limit?: number;

  @PageCursorField()
  cursor?: string;
}

/** `GET /organizations/{id}/audit_log/export`: filters plus the file format. */
export class AuditLogExportQueryDto extends AuditLogFilterDto {
  @ApiPropertyOptional({ enum: ['json', 'csv', 'jsonl'], default: 'json' })
  @MayBeAbsent()
  @IsIn(['json', 'csv', 'jsonl'])
  format?: 'json' | 'csv' | 'jsonl';
}
