import type { AuditAction, Role } from '@wp/contracts';
import type { OrganizationAuditEvent } from './audit-trail.js';

/**
 * What the audit trail records of an invitation: the fields of `Invitation` it reads, declared
 * here so that audit, below invitations, does not import it (docs/architecture.md § Inner
 * layering).
 */
export interface AuditedInvitation {
  id: string;
  organizationId: number;
  projectId: number | null;
  email: string;
  orgRole: Role | null;
  projectRole: Role | null;
}

/**
 * The audit entry of an invitation command: the invitation as target (its email as label),
 * the roles it grants and its project as details.
 */
export function invitationAudit(
  invitation: AuditedInvitation,
  action: AuditAction,
): OrganizationAuditEvent {
  return {
    organizationId: invitation.organizationId,
    action,
    target: { type: 'invitation', id: invitation.id, label: invitation.email },
    details: {
      orgRole: invitation.orgRole,
      projectRole: invitation.projectRole,
      projectId: invitation.projectId,
    },
  };
}

/**
 * The audit entry of a membership command on a user (organization level when `projectId` is
 * null): the user as target (email as label when known) and the roles as details.
 */
export function memberAudit(
  action: AuditAction,
  scope: { organizationId: number; projectId?: number | null },
  user: { id: string; email?: string | null },
  details: { role?: Role | null; previousRole?: Role | null } = {},
): OrganizationAuditEvent {
  return {
    organizationId: scope.organizationId,
    action,
    target: { type: 'user', id: user.id, label: user.email ?? null },
    details: {
      ...(scope.projectId != null ? { projectId: scope.projectId } : {}),
      ...(details.role !== undefined ? { role: details.role } : {}),
      ...(details.previousRole !== undefined ? { previousRole: details.previousRole } : {}),
    },
  };
}

/**
 * The audit entry of a project credential command (API key pair, LLM key, Sentinel Pass): the
 * credential as target with a readable, non-secret label (a note, a provider, a title) and its
 * project as detail. Never the secret.
 */
export function credentialAudit(
  action: AuditAction,
  scope: { organizationId: number; projectId: number },
  credential: {
    type: 'api_key' | 'llm_api_key' | 'sentinel_pass';
    id: string;
    label: string | null;
  },
): OrganizationAuditEvent {
  return {
    organizationId: scope.organizationId,
    action,
    target: credential,
    details: { projectId: scope.projectId },
  };
}
