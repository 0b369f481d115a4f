import { Injectable, type OnModuleInit } from '@nestjs/common';
import { TxHost } from '@wp/persistence';
import type { Role } from '@wp/contracts';
import { RpcServer } from '@wp/messaging';

/**
 * Answers `org.rpc.memberships.standing`: a user's current organization role and project
 * role / access denial, and whether the project is gone (`projectDeleted`: no such project in
 * the organization any more), from org's own tables (committed state), for services whose read
 * model is behind the organization's permission version (docs/architecture.md § Withdrawn
 * permissions at once).
 */
@Injectable()
export class MembershipsRpc implements OnModuleInit {
  constructor(
    private readonly rpc: RpcServer,
    private readonly txHost: TxHost,
  ) {}

  onModuleInit(): void {
    this.rpc.handle(
      'org.rpc.memberships.standing',
      async ({ organizationId, projectId, userId }) => {
        const rows: {
          organization_role: Role | null;
          project_role: Role | null;
          access_denied: boolean | null;
          project_deleted: boolean;
        }[] = await this.txHost.tx.query(
          `SELECT (SELECT role FROM organization_membership
                    WHERE organization_id = $1 AND user_id = $2) AS organization_role,
                  pm.role AS project_role, pm.access_denied,
                  ($3::integer IS NOT NULL AND NOT EXISTS (
                    SELECT 1 FROM project WHERE id = $3 AND organization_id = $1
                  )) AS project_deleted
             FROM (SELECT 1) one
             LEFT JOIN project_membership pm
               ON pm.project_id = $3 AND pm.organization_id = $1 AND pm.user_id = $2`,
          [organizationId, userId, projectId],
        );
        const row = rows[0];
        return {
          organizationRole: row?.organization_role ?? null,
          projectRole: row?.project_role ?? null,
          accessDenied: row?.access_denied ?? false,
          projectDeleted: row?.project_deleted ?? false,
        };
      },
    );
  }
}
