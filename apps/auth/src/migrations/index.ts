import { OrganizationSso1796600000000 } from './1796600000000-organization-sso.js';
import { OidcFederation1796400000000 } from './1796400000000-oidc-federation.js';
import { Init1795329162266 } from './1795329162266-init.js';
import { ActivationResetAndRotation1795330472893 } from './1795330472893-activation-reset-and-rotation.js';
import { SentinelPassActivity1795400000000 } from './1795400000000-sentinel-pass-activity.js';
import { TwoFactorAndSessionClients1795671616137 } from './1795671616137-two-factor-and-session-clients.js';
import { TenantPermissionVersion1796100000400 } from './1796100000400-tenant-permission-version.js';
import { Revocation1796200000500 } from './1796200000500-revocation.js';
import { UsernameKey1796300000000 } from './1796300000000-username-key.js';
import { Passkeys1796400000700 } from './1796400000700-passkeys.js';
import { SessionPasskey1796500000000 } from './1796500000000-session-passkey.js';
import { OperatorAuditLog1796500000100 } from './1796500000100-operator-audit-log.js';
import { OperatorAuditKeyset1796550000000 } from './1796550000000-operator-audit-keyset.js';
import { SessionConnection1796700000000 } from './1796700000000-session-connection.js';
import { RefreshRotationHot1796800000000 } from './1796800000000-refresh-rotation-hot.js';

/** Applied in this order; generated with `npm run migration:generate -- auth <Name>`. */
export const AUTH_MIGRATIONS: (new () => unknown)[] = [
  Init1795329162266,
  ActivationResetAndRotation1795330472893,
  SentinelPassActivity1795400000000,
  TwoFactorAndSessionClients1795671616137,
  TenantPermissionVersion1796100000400,
  Revocation1796200000500,
  UsernameKey1796300000000,
  OidcFederation1796400000000,
  Passkeys1796400000700,
  SessionPasskey1796500000000,
  OperatorAuditLog1796500000100,
  OperatorAuditKeyset1796550000000,
  OrganizationSso1796600000000,
  SessionConnection1796700000000,
  RefreshRotationHot1796800000000,
];
