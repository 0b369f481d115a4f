import { Controller, Get, Query, Req, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { decodeCursor, encodeCursor, Public } from '@wp/http';
import { AdminAccessGuard } from '@wp/security';
import type { FastifyRequest } from 'fastify';
import { OperatorAuditQueryDto } from './dto/operator-audit-query.dto.js';
import { OperatorAudit } from './operator-audit.js';
import {
  OperatorAuditPage,
  toOperatorAuditEntryResource,
} from './operator-audit-log.serializer.js';

const DEFAULT_LIMIT = 50;

/**
 * Operators' changes to the sign-in configuration, read back (Api-Key + `Admin-Access`;
 * docs/auth.md § Operator audit log): OIDC connections and client applications' redirect URIs,
 * newest first, keyset-paged.
 */
@ApiTags('sso')
@Controller('oauth')
@Public()
@UseGuards(AdminAccessGuard)
export class OperatorAuditLogController {
  constructor(private readonly audit: OperatorAudit) {}

  /** 200 a page, newest first; 400 invalid `limit` or `cursor`; 403 `ADMIN_ACCESS_REQUIRED`. */
  @Get('operator_audit_log')
  @ApiOperation({ summary: "List operators' changes to the sign-in configuration" })
  @ApiOkResponse({ type: OperatorAuditPage })
  async list(
    @Query() query: OperatorAuditQueryDto,
    @Req() request: FastifyRequest,
  ): Promise<OperatorAuditPage> {
    const limit = query.limit ?? DEFAULT_LIMIT;
    const cursor = query.cursor === undefined ? null : decodeCursor(query.cursor);
    const rows = await this.audit.page(cursor, limit + 1);
    const shown = rows.slice(0, limit);
    const last = shown[shown.length - 1];
    const next =
      rows.length > limit && last ? encodeCursor({ at: last.cursorAt, id: last.id }) : null;
    const path = request.url.split('?')[0] ?? '';
    return {
      data: shown.map(toOperatorAuditEntryResource),
      meta: { limit, next_cursor: next },
      links: {
        next:
          next === null
            ? null
            : `${path}?${new URLSearchParams({ limit: String(limit), cursor: next }).toString()}`,
      },
    };
  }
}
