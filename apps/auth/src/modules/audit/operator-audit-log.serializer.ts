import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { OperatorAuditRow } from './operator-audit.js';

export class OperatorActorView {
  @ApiProperty({
    enum: ['admin_access', 'cli'],
    description: '`admin_access`: the API with the `Admin-Access` secret; `cli`: `npm run cli`.',
  })
  type!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The operating-system user of a CLI run; null through the API.',
  })
  id!: string | null;
}

export class OperatorTargetView {
  @ApiProperty({ enum: ['oidc_connection', 'client_application'] })
  type!: string;

  @ApiProperty()
  id!: string;

  @ApiProperty({ type: String, nullable: true, description: "A connection's slug." })
  label!: string | null;
}

/** Attributes of one operator audit entry. */
export class OperatorAuditEntryAttributes {
  @ApiProperty({ description: 'When it happened (ISO 8601).' })
  occurredAt!: string;

  @ApiProperty({
    description:
      'e.g. `oidc_connection.created`, `oidc_connection.disabled`, `client_application.redirect_uris_changed`.',
  })
  action!: string;

  @ApiProperty({ type: () => OperatorActorView })
  actor!: OperatorActorView;

  @ApiProperty({ type: () => OperatorTargetView })
  target!: OperatorTargetView;

  @ApiProperty({ type: String, nullable: true, description: 'Null from the CLI.' })
  clientAddress!: string | null;

  @ApiProperty({ type: String, nullable: true, description: '`X-Request-Id`; null from the CLI.' })
  requestId!: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Null from the CLI.' })
  userAgent!: string | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'Non-secret facts: the names of the fields changed, never a secret.',
  })
  details!: Record<string, string | number | boolean | null>;
}

export class OperatorAuditEntryResource {
  @ApiProperty({ enum: ['operator_audit_entry'] })
  type!: 'operator_audit_entry';

  @ApiProperty({ description: 'Entry id (UUID).' })
  id!: string;

  @ApiProperty({ type: () => OperatorAuditEntryAttributes })
  attributes!: OperatorAuditEntryAttributes;
}

export class OperatorAuditPageMeta {
  @ApiProperty({ description: 'Page size used.' })
  limit!: number;

  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for older entries.' })
  next_cursor!: string | null;
}

export class OperatorAuditPageLinks {
  @ApiPropertyOptional({ type: String, nullable: true, description: 'The next page.' })
  next!: string | null;
}

/** `GET /oauth/operator_audit_log`: newest first. */
export class OperatorAuditPage {
  @ApiProperty({ type: () => [OperatorAuditEntryResource] })
  data!: OperatorAuditEntryResource[];

  @ApiProperty({ type: () => OperatorAuditPageMeta })
  meta!: OperatorAuditPageMeta;

  @ApiProperty({ type: () => OperatorAuditPageLinks })
  links!: OperatorAuditPageLinks;
}

export function toOperatorAuditEntryResource(row: OperatorAuditRow): OperatorAuditEntryResource {
  return {
    type: 'operator_audit_entry',
    id: row.id,
    attributes: {
      occurredAt: row.occurredAt.toISOString(),
      action: row.action,
      actor: { type: row.actorType, id: row.actorId },
      target: { type: row.targetType, id: row.targetId, label: row.targetLabel },
      clientAddress: row.clientAddress,
      requestId: row.requestId,
      userAgent: row.userAgent,
      details: row.details,
    },
  };
}
