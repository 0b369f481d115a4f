import { csvRows } from '@wp/http';
import type { AuditLogRow } from './audit-log.repository.js';

export type AuditExportFormat = 'json' | 'csv' | 'jsonl';

export const AUDIT_EXPORT_CONTENT_TYPES: Record<AuditExportFormat, string> = {
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  jsonl: 'application/x-ndjson; charset=utf-8',
};

/** One exported entry: flat, snake_case (the CSV columns, in this order). */
export interface AuditExportRecord {
  id: string;
  occurred_at: string;
  action: string;
  outcome: string;
  actor_type: string;
  actor_id: string | null;
  actor_email: string | null;
  target_type: string | null;
  target_id: string | null;
  target_label: string | null;
  client_address: string | null;
  request_id: string | null;
  user_agent: string | null;
  service: string;
  details: Record<string, string | number | boolean | null>;
}

export const AUDIT_EXPORT_FIELDS: (keyof AuditExportRecord)[] = [
  'id',
  'occurred_at',
  'action',
  'outcome',
  'actor_type',
  'actor_id',
  'actor_email',
  'target_type',
  'target_id',
  'target_label',
  'client_address',
  'request_id',
  'user_agent',
  'service',
  'details',
];

export function toExportRecord(row: AuditLogRow): AuditExportRecord {
  return {
    id: row.entryId,
    occurred_at: row.occurredAt.toISOString(),
    action: row.action,
    outcome: row.outcome,
    actor_type: row.actorType,
    actor_id: row.actorId,
    actor_email: row.actorEmail,
    target_type: row.targetType,
    target_id: row.targetId,
    target_label: row.targetLabel,
    client_address: row.clientAddress,
    request_id: row.requestId,
    user_agent: row.userAgent,
    service: row.service,
    details: row.details,
  };
}

const CHUNK_CHARS = 64 * 1024;

/**
 * The chunks (about 64 KiB each) of an export file, as the Sentinel Pass activity export makes
 * them (docs/auth.md § Activity endpoints): `json` one array, `jsonl` one object per line,
 * `csv` a header row of {@link AUDIT_EXPORT_FIELDS} then one CRLF-ended row per entry
 * (`details` as a JSON text field).
 */
export async function* auditExportChunks(
  records: AsyncIterable<AuditExportRecord> | Iterable<AuditExportRecord>,
  format: AuditExportFormat,
): AsyncGenerator<string> {
  let pending = '';
  for await (const piece of pieces(records, format)) {
    pending += piece;
    if (pending.length >= CHUNK_CHARS) {
      yield pending;
      pending = '';
    }
  }
  if (pending !== '') yield pending;
}

async function* pieces(
  records: AsyncIterable<AuditExportRecord> | Iterable<AuditExportRecord>,
  format: AuditExportFormat,
): AsyncGenerator<string> {
  if (format === 'csv') {
    yield* csvRows(records, AUDIT_EXPORT_FIELDS);
    return;
  }
  if (format === 'jsonl') {
    for await (const r of records) yield `${JSON.stringify(r)}\n`;
    return;
  }
  yield '[';
  let first = true;
  for await (const r of records) {
    yield `${first ? '' : ','}\n${JSON.stringify(r)}`;
    first = false;
  }
  yield first ? ']\n' : '\n]\n';
}
