import { Global, Module } from '@nestjs/common';
import { AuthAudit } from './auth-audit.js';
import { OperatorAudit } from './operator-audit.js';

/**
 * Auth's audit: publishing user-level security events to the organization audit log
 * ({@link AuthAudit}), and operators' changes to sign-in configuration ({@link OperatorAudit}).
 */
@Global()
@Module({ providers: [AuthAudit, OperatorAudit], exports: [AuthAudit, OperatorAudit] })
export class AuditModule {}
