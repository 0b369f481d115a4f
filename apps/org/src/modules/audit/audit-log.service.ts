import { Injectable } from '@nestjs/common';
import { decodeCursor, encodeCursor, parseIsoInstant, ValidationFailedError } from '@wp/http';
import type { Principal } from '@wp/security';
import { AccessService } from '../access/access.service.js';
import { toExportRecord, type AuditExportRecord } from './audit-export.js';
import { AuditLogRepository, type AuditLogFilter } from './audit-log.repository.js';
import { toAuditLogEntryResource, type AuditLogPage } from './audit-log.serializer.js';
import type { AuditLogFilterDto, AuditLogQueryDto } from './dto/audit-log-query.dto.js';

const DEFAULT_LIMIT = 50;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Reading an organization's audit log (docs/org.md § Audit log): OWNER and ADMIN only
 * (`organization.readAuditLog`); a non-member gets 404 like for any organization route.
 * Pages are keyset-paged (newest first, `(occurred_at, entry_id)`), exports streamed in
 * batches.
 */
@Injectable()
export class AuditLogService {
  constructor(
    private readonly access: AccessService,
    private readonly log: AuditLogRepository,
  ) {}

  /**
   * @throws OrganizationNotFoundError 404; PermissionDeniedError 403 `FORBIDDEN` (MEMBER,
   *   VIEWER, project-only members); 403 `ORGANIZATION_REQUIRES_TWO_FACTOR`
   */
  async authorize(principal: Principal, organizationId: number): Promise<void> {
    await this.access.organizationWith(principal, organizationId, 'organization.readAuditLog');
  }

  /** @throws ValidationFailedError 400 for a cursor that no page gave, or a reversed window */
  async page(organizationId: number, query: AuditLogQueryDto, path: string): Promise<AuditLogPage> {
    const limit = query.limit ?? DEFAULT_LIMIT;
    const cursor = query.cursor === undefined ? null : decodeCursor(query.cursor);
    const rows = await this.log.page(filterOf(organizationId, query), cursor, limit + 1);
    const more = rows.length > limit;
    const shown = more ? rows.slice(0, limit) : rows;
    const last = shown[shown.length - 1];
    const next = more && last ? encodeCursor({ at: last.cursorAt, id: last.entryId }) : null;
    return {
      data: shown.map(toAuditLogEntryResource),
      meta: { limit, next_cursor: next },
      links: { next: next === null ? null : nextLink(path, query, next) },
    };
  }

  /** Every matching entry, newest first (constant memory). */
  async *export(
    organizationId: number,
    query: AuditLogFilterDto,
  ): AsyncGenerator<AuditExportRecord> {
    for await (const row of this.log.all(filterOf(organizationId, query))) {
      yield toExportRecord(row);
    }
  }

  /** Validates the filters up front (before a streamed answer starts). */
  check(organizationId: number, query: AuditLogFilterDto): void {
    filterOf(organizationId, query);
  }
}

function filterOf(organizationId: number, query: AuditLogFilterDto): AuditLogFilter {
  const from = query.start_date === undefined ? undefined : parseIsoInstant(query.start_date)!;
  let until: Date | undefined;
  let untilExclusive = false;
  if (query.end_date !== undefined) {
    until = parseIsoInstant(query.end_date)!;
    if (DATE_ONLY.test(query.end_date)) {
      // A calendar date as end_date takes that whole UTC day.
      until = new Date(until.getTime() + 86_400_000);
      untilExclusive = true;
    }
  }
  if (from && until && from.getTime() > until.getTime()) {
    throw ValidationFailedError.at(
      { parameter: 'start_date' },
      'start_date must not be after end_date.',
    );
  }
  return {
    organizationId,
    actorId: query.actor,
    actions: query.action,
    from,
    until,
    untilExclusive,
  };
}

function nextLink(path: string, query: AuditLogQueryDto, cursor: string): string {
  const params = new URLSearchParams();
  if (query.actor !== undefined) params.set('actor', query.actor);
  if (query.action?.length) params.set('action', query.action.join(','));
  if (query.start_date !== undefined) params.set('start_date', query.start_date);
  if (query.end_date !== undefined) params.set('end_date', query.end_date);
  if (query.limit !== undefined) params.set('limit', String(query.limit));
  params.set('cursor', cursor);
  return `${path}?${params.toString()}`;
}
