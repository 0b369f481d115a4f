import { ActivationCode } from '../modules/activation/activation-code.entity.js';
import { OperatorAuditEntry } from '../modules/audit/operator-audit-entry.entity.js';
import { ClientApplication } from '../modules/applications/client-application.entity.js';
import { OidcConnection } from '../modules/federation/oidc-connection.entity.js';
import { SsoCode } from '../modules/federation/sso-code.entity.js';
import { SsoRequest } from '../modules/federation/sso-request.entity.js';
import { UserIdentity } from '../modules/federation/user-identity.entity.js';
import { PasskeyCredential } from '../modules/passkeys/passkey-credential.entity.js';
import { WebauthnChallenge } from '../modules/passkeys/webauthn-challenge.entity.js';
import { PasswordResetToken } from '../modules/password-reset/password-reset-token.entity.js';
import { AgentActivity } from '../modules/sentinel/agent-activity.entity.js';
import { Membership } from '../modules/sentinel/membership.entity.js';
import { SentinelPass } from '../modules/sentinel/sentinel-pass.entity.js';
import { RefreshTokenFamily } from '../modules/sessions/refresh-token-family.entity.js';
import { RefreshToken } from '../modules/sessions/refresh-token.entity.js';
import { MfaChallenge } from '../modules/two-factor/mfa-challenge.entity.js';
import { RecoveryCode } from '../modules/two-factor/recovery-code.entity.js';
import { TotpCredential } from '../modules/two-factor/totp-credential.entity.js';
import { User } from '../modules/accounts/user.entity.js';

/** Every entity of the auth database (the platform adds the outbox tables). */
export const AUTH_ENTITIES = [
  ClientApplication,
  User,
  RefreshTokenFamily,
  RefreshToken,
  ActivationCode,
  PasswordResetToken,
  SentinelPass,
  Membership,
  AgentActivity,
  TotpCredential,
  RecoveryCode,
  MfaChallenge,
  OidcConnection,
  UserIdentity,
  SsoRequest,
  SsoCode,
  PasskeyCredential,
  WebauthnChallenge,
  OperatorAuditEntry,
];
