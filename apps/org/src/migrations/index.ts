import { WebhookMessageJsonBody1796800000000 } from './1796800000000-webhook-message-json-body.js';
import { WebhookDeliveryLeaseholder1796750000000 } from './1796750000000-webhook-delivery-leaseholder.js';
import { OrganizationSso1796600000000 } from './1796600000000-organization-sso.js';
import { WebhookDeliveryInFlight1796500000000 } from './1796500000000-webhook-delivery-in-flight.js';
import { Webhooks1796400000000 } from './1796400000000-webhooks.js';
import { InvitationEmailKey1796300000000 } from './1796300000000-invitation-email-key.js';
import { DirectoryUserOccurredAt1795800000000 } from './1795800000000-directory-user-occurred-at.js';
import { SentinelPassCredentialEpoch1796100000300 } from './1796100000300-sentinel-pass-credential-epoch.js';
import { OrganizationPermissionVersion1796100000001 } from './1796100000001-organization-permission-version.js';
import { InvitationResendBudget1795672616438 } from './1795672616438-invitation-resend-budget.js';
import { SecurityPolicyAndAuditLog1795672662299 } from './1795672662299-security-policy-and-audit-log.js';
import { SentinelPasses1795457497987 } from './1795457497987-sentinel-passes.js';
import { UserSettings1795457355605 } from './1795457355605-user-settings.js';
import { Projects1795333906939 } from './1795333906939-projects.js';
import { Organizations1795332071711 } from './1795332071711-organizations.js';
import { Init1795329926949 } from './1795329926949-init.js';
import { Revocation1796200000501 } from './1796200000501-revocation.js';

/** Applied in this order; generated with `npm run migration:generate -- org <Name>`. */
export const ORG_MIGRATIONS: (new () => unknown)[] = [
  Init1795329926949,
  Organizations1795332071711,
  Projects1795333906939,
  UserSettings1795457355605,
  SentinelPasses1795457497987,
  InvitationResendBudget1795672616438,
  SecurityPolicyAndAuditLog1795672662299,
  DirectoryUserOccurredAt1795800000000,
  OrganizationPermissionVersion1796100000001,
  SentinelPassCredentialEpoch1796100000300,
  Revocation1796200000501,
  InvitationEmailKey1796300000000,
  Webhooks1796400000000,
  WebhookDeliveryInFlight1796500000000,
  OrganizationSso1796600000000,
  WebhookDeliveryLeaseholder1796750000000,
  WebhookMessageJsonBody1796800000000,
];
