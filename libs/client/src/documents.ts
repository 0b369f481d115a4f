import type { AnswerBody, QueryOf, RequestBody } from './operations.js';

/**
 * Names for the documents the helpers take and give, each read from the OpenAPI document
 * (docs/openapi.json) so they change with the API.
 */

type Item<L> = L extends { data: readonly (infer T)[] } ? T : never;

/** `POST /oauth/token` 200: a user's session or a Sentinel Pass agent's (no refresh token). */
export type TokenDocument = AnswerBody<'/v1/api/oauth/token', 'post'>;
/** A user's session (docs/api.md § Session): `data.attributes` has both tokens. */
export type SessionDocument = Extract<
  TokenDocument,
  { data: { attributes: { refreshToken: string } } }
>;
/** `POST /users` 201 when activation is required (docs/api.md § Activation-required registration response). */
export type ActivationRequired = Extract<
  AnswerBody<'/v1/api/users', 'post'>,
  { activationRequired: true }
>;
/** What {@link WorkspacePlatformClient.register} resolves with: narrow it by `status`. */
export type Registration =
  { status: 200; body: SessionDocument } | { status: 201; body: ActivationRequired };

export type OrganizationDocument = AnswerBody<'/v1/api/organizations/{organizationId}', 'get'>;
export type ProjectListDocument = AnswerBody<
  '/v1/api/organizations/{organizationId}/projects',
  'get'
>;
export type ProjectListQuery = QueryOf<'/v1/api/organizations/{organizationId}/projects', 'get'>;
export type Project = Item<ProjectListDocument>;
export type ProjectDocument = AnswerBody<
  '/v1/api/organizations/{organizationId}/projects/{projectId}',
  'get'
>;
/** A project's key pair (`GET …/projects/{id}?secret=true` → `meta.secrets`), for analytics. */
export interface ProjectKeyPair {
  publicKey: string;
  secretKey: string;
}
/** {@link ProjectDocument} with its key pair (`secret=true`). */
export type ProjectWithSecrets = ProjectDocument & { meta: { secrets: ProjectKeyPair } };

export type WalletDocument = AnswerBody<'/v1/api/wallets/{addressHash}', 'get'>;
export type WalletListDocument = AnswerBody<'/v1/api/wallets', 'get'>;
export type Wallet = Item<WalletListDocument>;
export type TransactRequest = RequestBody<'/v1/api/wallets/transact', 'post'>['transaction'];
export type TransactionDocument = AnswerBody<'/v1/api/wallets/transact', 'post'>;
export type AdjustmentRequest = RequestBody<
  '/v1/api/wallets/{addressHash}/debits',
  'post'
>['debit'];
export type DebitDocument = AnswerBody<'/v1/api/wallets/{addressHash}/debits', 'post'>;
export type CreditDocument = AnswerBody<'/v1/api/wallets/{addressHash}/credits', 'post'>;
export type TransferRequest = RequestBody<'/v1/api/wallet_transfers', 'post'>['transfer'];
export type TransferDocument = AnswerBody<'/v1/api/wallet_transfers', 'post'>;
/** One line of a wallet's history (docs/wallet.md § Transaction record). */
export type WalletTransaction = Item<
  AnswerBody<'/v1/api/wallets/{addressHash}/transactions', 'get'>
>;
/** One transfer request of `GET /wallet_transfers` (docs/wallet.md § Transfer requests). */
export type WalletTransfer = Item<AnswerBody<'/v1/api/wallet_transfers', 'get'>>;

export type ActivityLogQuery = Omit<
  QueryOf<'/v1/api/oauth/agent/activity/logs', 'get'>,
  'page' | 'agent_user_id'
>;
export type ActivityLogEntry = Item<AnswerBody<'/v1/api/oauth/agent/activity/logs', 'get'>>;
export type AuditLogQuery = Omit<
  QueryOf<'/v1/api/organizations/{organizationId}/audit_log', 'get'>,
  'cursor'
>;
export type AuditLogEntry = Item<
  AnswerBody<'/v1/api/organizations/{organizationId}/audit_log', 'get'>
>;
/** One live session of the signed-in user (docs/auth.md § Session management). */
export type UserSession = Item<AnswerBody<'/v1/api/users/me/sessions', 'get'>>;

/** `GET /user_settings` (docs/api.md § User settings object). */
export type UserSettingsDocument = AnswerBody<'/v1/api/user_settings', 'get'>;
/** The body of `PATCH /user_settings`: setting fields, or the pinned projects of one organization. */
export type SettingsPatch = RequestBody<'/v1/api/user_settings', 'patch'>;
/** The setting fields of a PATCH (`theme`, `language`, `sidebar_open`, current ids). */
export type SettingsChanges = Exclude<SettingsPatch, { setting_key: unknown }>;
