import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AUDIT_ACTIONS, AUDIT_OUTCOMES } from '@wp/contracts';
import type { AuditLogRow } from './audit-log.repository.js';

export class AuditActorView {
  @ApiProperty({ enum: ['user', 'agent', 'anonymous'] })
  type!: string;

  @ApiProperty({ type: String, nullable: true, description: 'User id or Sentinel Pass id.' })
  id!: string | null;

  @ApiProperty({ type: String, nullable: true })
  email!: string | null;
}

export class AuditTargetView {
  @ApiProperty({ description: 'e.g. `user`, `session`, `invitation`, `api_key`, `wallet`.' })
  type!: string;

  @ApiProperty()
  id!: string;

  @ApiProperty({ type: String, nullable: true, description: 'A readable name (email, title).' })
  label!: string | null;
}

/** Attributes of one audit log entry. */
export class AuditLogEntryAttributes {
  @ApiProperty({ description: 'When it happened (ISO 8601).' })
  occurredAt!: string;

  @ApiProperty({ enum: AUDIT_ACTIONS })
  action!: string;

  @ApiProperty({ enum: AUDIT_OUTCOMES })
  outcome!: string;

  @ApiProperty({ type: () => AuditActorView })
  actor!: AuditActorView;

  @ApiProperty({ type: () => AuditTargetView, nullable: true })
  target!: AuditTargetView | null;

  @ApiProperty({ type: String, nullable: true })
  clientAddress!: string | null;

  @ApiProperty({ type: String, nullable: true, description: '`X-Request-Id` of the request.' })
  requestId!: string | null;

  @ApiProperty({ type: String, nullable: true })
  userAgent!: string | null;

  @ApiProperty({ enum: ['auth', 'org', 'wallet'], description: 'The service that recorded it.' })
  service!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'Non-secret facts (role, method, count, …).',
  })
  details!: Record<string, string | number | boolean | null>;
}

export class AuditLogEntryResource {
  @ApiProperty({ enum: ['audit_log_entry'] })
  type!: 'audit_log_entry';

  @ApiProperty({ description: 'Entry id (UUID).' })
  id!: string;

  @ApiProperty({ type: () => AuditLogEntryAttributes })
  attributes!: AuditLogEntryAttributes;
}

export class AuditLogPageMeta {
  @ApiProperty()
  limit!: number;

  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for older entries.' })
  next_cursor!: string | null;
}

export class AuditLogPageLinks {
  @ApiPropertyOptional({ type: String, nullable: true })
  next!: string | null;
}

/** `GET /organizations/{id}/audit_log`: newest first. */
export class AuditLogPage {
  @ApiProperty({ type: () => [AuditLogEntryResource] })
  data!: AuditLogEntryResource[];

  @ApiProperty({ type: () => AuditLogPageMeta })
  meta!: AuditLogPageMeta;

  @ApiProperty({ type: () => AuditLogPageLinks })
  links!: AuditLogPageLinks;
}

export function toAuditLogEntryResource(row: AuditLogRow): AuditLogEntryResource {
  return {
    type: 'audit_log_entry',
    id: row.entryId,
    attributes: {
      occurredAt: row.occurredAt.toISOString(),
      action: row.action,
      outcome: row.outcome,
      actor: { type: row.actorType, id: row.actorId, email: row.actorEmail },
      target:
        row.targetType !== null && row.targetId !== null
          ? { type: row.targetType, id: row.targetId, label: row.targetLabel }
          : null,
      clientAddress: row.clientAddress,
      requestId: row.requestId,
      userAgent: row.userAgent,
      service: row.service,
      details: row.details,
    },
  };
}
