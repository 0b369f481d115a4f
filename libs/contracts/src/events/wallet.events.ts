import { z } from 'zod';

const Id = z.number().int().positive();

/**
 * `wallet.wallet.created`: org keeps `has_wallet` on projects from it. `organizationId` and
 * `projectId` name the tenant that governs the wallet (null for a personal wallet; absent from
 * events published before they existed).
 */
export const WalletCreated = z.object({
  addressHash: z.string().regex(/^0x[0-9a-f]{40}$/),
  entityType: z.enum(['user', 'organization', 'project', 'agent']),
  entityId: z.string(),
  purpose: z.string(),
  currency: z.string(),
  organizationId: Id.nullable().optional(),
  projectId: Id.nullable().optional(),
});

/** The organization (and project) governing one side of a movement. */
export const WalletTenant = z.object({ organizationId: Id, projectId: Id.nullable() });
export type WalletTenant = z.infer<typeof WalletTenant>;

/** Who started a wallet command: a user, a Sentinel Pass agent, or the service itself. */
const WalletActor = z
  .object({ type: z.enum(['user', 'agent', 'system']), id: z.string().nullable() })
  .nullable();

/** Decimal text of an amount (`NUMERIC(38,8)`, docs/wallet.md § Amounts). */
const Decimal = z.string().regex(/^\d+(\.\d+)?$/);

/**
 * `wallet.transaction.posted`: a debit, transfer or conversion touching an organization's or
 * project's wallet, in the transaction that posts it (docs/webhooks.md § Sources; credits
 * reach org as `wallet.audit.recorded`). `tenants`: the distinct tenants of the two sides
 * (a personal wallet has none, so a movement between two personal wallets is not published).
 */
export const TransactionPosted = z.object({
  transactionId: z.uuid(),
  kind: z.enum(['debit', 'transfer', 'conversion']),
  fromWallet: z.string().nullable(),
  toWallet: z.string().nullable(),
  amount: Decimal,
  asset: z.string(),
  toAmount: Decimal,
  toAsset: z.string(),
  description: z.string(),
  referenceId: z.string().nullable(),
  transferId: z.uuid().nullable(),
  createdAt: z.iso.datetime({ offset: true }),
  actor: WalletActor,
  tenants: z.array(WalletTenant).min(1).max(2),
});
export type TransactionPosted = z.infer<typeof TransactionPosted>;

/**
 * `wallet.transfer_request.changed`: a transfer request was made, accepted (completed),
 * rejected or expired, in the transaction of that step (docs/wallet.md § Transfer requests).
 * Never its codes. `tenants` as for {@link TransactionPosted}; only requests with a tenant
 * side are published.
 */
export const TransferRequestChanged = z.object({
  transferId: z.uuid(),
  status: z.enum([
    'pending_sender_verification',
    'pending_recipient_acceptance',
    'completed',
    'rejected',
    'expired',
  ]),
  failureReason: z.string().nullable(),
  fromWallet: z.string(),
  toWallet: z.string(),
  amount: Decimal,
  asset: z.string(),
  description: z.string().nullable(),
  transactionId: z.uuid().nullable(),
  createdAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
  actor: WalletActor,
  tenants: z.array(WalletTenant).min(1).max(2),
});
export type TransferRequestChanged = z.infer<typeof TransferRequestChanged>;
