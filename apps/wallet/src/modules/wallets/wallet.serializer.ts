import { Amount } from '../../common/amount.js';
import type { BalanceView } from './wallet-balances.js';
import type { Wallet } from './wallet.entity.js';

/** One asset's balance in a wallet record. */
export interface BalanceRecord {
  /** Spendable. */
  available: Amount;
  /** Reserved by transfer requests awaiting the recipient. */
  held: Amount;
}

/**
 * The wallet record (docs/architecture.md § Wallet record; docs/wallet.md § Records): snake_case
 * fields, ISO 8601 times, amounts as JSON numbers. `balance` is the available balance in the
 * wallet's `currency`; `balances` lists every asset the wallet holds or has held, and always its
 * currency.
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
  status: 'active' | 'closed';
  balance: Amount;
  balances: Record<string, BalanceRecord>;
  created_at: string;
  updated_at: string;
}

const ZERO = Amount.fromNumeric('0');

export function toWalletRecord(wallet: Wallet, balances: BalanceView[]): WalletRecord {
  const byAsset: Record<string, BalanceRecord> = {
    [wallet.currency]: { available: ZERO, held: ZERO },
  };
  for (const b of balances) byAsset[b.asset] = { available: b.available, held: b.held };
  return {
    address_hash: wallet.addressHash,
    entity_type: wallet.entityType,
    entity_id: wallet.entityId,
    entity_name: wallet.entityName,
    purpose: wallet.purpose,
    currency: wallet.currency,
    description: wallet.description,
    metadata: wallet.metadata,
    status: wallet.closedAt === null ? 'active' : 'closed',
    balance: byAsset[wallet.currency].available,
    balances: byAsset,
    created_at: wallet.createdAt.toISOString(),
    updated_at: wallet.updatedAt.toISOString(),
  };
}
