import { ProjectApiKey } from '../modules/api-keys/project-api-key.entity.js';
import { AuditLogEntry } from '../modules/audit/audit-log-entry.entity.js';
import { Invitation } from '../modules/invitations/invitation.entity.js';
import { LlmApiKey } from '../modules/llm-keys/llm-api-key.entity.js';
import { MembershipVersion } from '../modules/memberships/membership-version.entity.js';
import { OrganizationMembership } from '../modules/memberships/organization-membership.entity.js';
import { Organization } from '../modules/tenants/organization.entity.js';
import { ProjectMembership } from '../modules/memberships/project-membership.entity.js';
import { Project } from '../modules/tenants/project.entity.js';
import { SentinelPass } from '../modules/sentinel-passes/sentinel-pass.entity.js';
import { DirectoryUser } from '../modules/users/directory-user.entity.js';
import { PinnedProject } from '../modules/user-settings/pinned-project.entity.js';
import {
  WebhookAttempt,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookMessage,
} from '../modules/webhooks/webhook-tables.js';
import { UserSettings } from '../modules/user-settings/user-settings.entity.js';

/** Every entity of the org database (the platform adds the outbox tables). */
export const ORG_ENTITIES = [
  Organization,
  OrganizationMembership,
  MembershipVersion,
  Project,
  ProjectMembership,
  Invitation,
  ProjectApiKey,
  LlmApiKey,
  SentinelPass,
  DirectoryUser,
  UserSettings,
  PinnedProject,
  AuditLogEntry,
  WebhookEndpoint,
  WebhookMessage,
  WebhookDelivery,
  WebhookAttempt,
];
