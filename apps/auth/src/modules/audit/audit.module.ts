import { Global, Module } from '@nestjs/common';
import { AuthAudit } from './auth-audit.js';
import { OperatorAudit } from './operator-audit.js';
import { OperatorAuditLogController } from './operator-audit-log.controller.js';

/**
 * Auth's audit: publishing user-level security events to the organization audit log
 * ({@link AuthAudit}), and operators' changes to sign-in configuration ({@link OperatorAudit}),
 * read back at `GET /oauth/operator_audit_log`.
 */
@Global()
@Module({
  controllers: [OperatorAuditLogController],
  providers: [AuthAudit, OperatorAudit],
  exports: [AuthAudit, OperatorAudit],
})
export class AuditModule {}
