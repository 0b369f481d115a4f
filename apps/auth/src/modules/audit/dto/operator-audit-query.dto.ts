import { PageCursorField, PageLimitField } from '@wp/http';

/** `GET /oauth/operator_audit_log`: cursor paging, newest first (docs/auth.md § Operator audit log). */
export class OperatorAuditQueryDto {
  @PageLimitField()
  limit?: number;

  @PageCursorField()
  cursor?: string;
}
