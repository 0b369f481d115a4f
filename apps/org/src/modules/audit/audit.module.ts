import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { AuditEventsHandler } from './audit-events.handler.js';
import { AuditLogController } from './audit-log.controller.js';
import { AuditLogRepository } from './audit-log.repository.js';
import { AuditLogService } from './audit-log.service.js';
import { AuditTrail } from './audit-trail.js';
import { RequestContextInterceptor } from './request-context.js';
import { EndpointAuditRecorder } from '../webhooks/endpoint-audit.js';

/**
 * The organization audit log (docs/org.md § Audit log): the table, the recorder org's commands
 * call in their transactions (`AuditTrail`, exported everywhere; also as the webhooks module's
 * `EndpointAuditRecorder`), the consumers of the other
 * services' audit events, and the read endpoints.
 */
@Global()
@Module({
  controllers: [AuditLogController],
  providers: [
    AuditLogRepository,
    AuditTrail,
    AuditLogService,
    AuditEventsHandler,
    { provide: APP_INTERCEPTOR, useClass: RequestContextInterceptor },
    { provide: EndpointAuditRecorder, useExisting: AuditTrail },
  ],
  exports: [AuditTrail, EndpointAuditRecorder],
})
export class AuditModule {}
