import type { Wallet } from './wallet.entity.js';

/**
 * The wallet record (ARCHITECTURE § 4 "Wallet record"): snake_case fields, ISO 8601 times.
 * Balances are added by the ledger.
 */
export interface WalletRecord {
  address_hash: string;
  entity_type: string;
  entity_id: string;
  entity_name: string;
  purpose: string;
  currency: string;
  description: string;
  metadata: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

export function toWalletRecord(wallet: Wallet): WalletRecord {
  return {
    address_hash: wallet.addressHash,
    entity_type: wallet.entityType,
    entity_id: wallet.entityId,
    entity_name: wallet.entityName,
    purpose: wallet.purpose,
    currency: wallet.currency,
    description: wallet.description,
    metadata: wallet.metadata,
    created_at: wallet.createdAt.toISOString(),
    updated_at: wallet.updatedAt.toISOString(),
  };
}
