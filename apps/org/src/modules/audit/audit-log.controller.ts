import { Readable } from 'node:stream';
import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { IntIdPipe } from '@wp/http';
import { CurrentPrincipal, type Principal } from '@wp/security';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AUDIT_EXPORT_CONTENT_TYPES, auditExportChunks } from './audit-export.js';
import { AuditLogPage } from './audit-log.serializer.js';
import { AuditLogService } from './audit-log.service.js';
import { AuditLogExportQueryDto, AuditLogQueryDto } from './dto/audit-log-query.dto.js';

/**
 * An organization's audit log on {org_url} (header set B; OWNER and ADMIN): who did what,
 * when, from where (docs/org.md § Audit log). A non-member gets 404; MEMBER and VIEWER 403.
 */
@ApiTags('audit-log')
@ApiBearerAuth()
@Controller('organizations')
export class AuditLogController {
  constructor(private readonly audit: AuditLogService) {}

  /** 200 page, newest first; 400 invalid filter or cursor; 403; 404. */
  @Get(':organizationId/audit_log')
  @ApiOperation({ summary: "List an organization's audit log" })
  @ApiOkResponse({ type: AuditLogPage })
  async list(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Query() query: AuditLogQueryDto,
    @Req() request: FastifyRequest,
  ): Promise<AuditLogPage> {
    await this.audit.authorize(principal, organizationId);
    return this.audit.page(organizationId, query, request.url.split('?')[0] ?? '');
  }

  /** 200 streamed attachment (json, csv, jsonl), newest first; 400; 403; 404. */
  @Get(':organizationId/audit_log/export')
  @ApiOperation({ summary: "Export an organization's audit log" })
  @ApiProduces('application/json', 'text/csv', 'application/x-ndjson')
  @ApiOkResponse({ description: 'The file, as an attachment' })
  async export(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Query() query: AuditLogExportQueryDto,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.audit.authorize(principal, organizationId);
    this.audit.check(organizationId, query);
    const format = query.format ?? 'json';
    const stream = Readable.from(
      auditExportChunks(this.audit.export(organizationId, query), format),
    );
    await reply
      .status(200)
      .header('content-type', AUDIT_EXPORT_CONTENT_TYPES[format])
      .header('content-disposition', `attachment; filename="audit-log-${organizationId}.${format}"`)
      .header('cache-control', 'no-store')
      .send(stream);
  }
}
