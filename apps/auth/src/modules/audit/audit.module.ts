import { Global, Module } from '@nestjs/common';
import { AuthAudit } from './auth-audit.js';

/** Auth's side of the organization audit log: publishing user-level security events. */
@Global()
@Module({ providers: [AuthAudit], exports: [AuthAudit] })
export class AuditModule {}
