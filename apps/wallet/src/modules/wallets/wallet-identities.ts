import { Injectable } from '@nestjs/common';
import type { Wallet } from './wallet.entity.js';

/** What never changes about a wallet: its address, owner, governing organization / project, currency. */
export type WalletIdentity = Pick<
  Wallet,
  'addressHash' | 'entityType' | 'entityId' | 'organizationId' | 'projectId' | 'currency'
>;

const MAX_ENTRIES = 50_000;

/**
 * An in-process memory of wallet identities, so a money movement can be authorized without
 * reading the wallet row first: the owner of a personal wallet needs no query at all, an
 * organization's or project's wallet only the caller's roles (always read fresh). Safe without
 * invalidation because these fields never change; whether a wallet is still open is checked by
 * the ledger function in the statement that moves the money. Bounded (cleared when full).
 */
@Injectable()
export class WalletIdentities {
  private readonly known = new Map<string, WalletIdentity>();

  get(address: string): WalletIdentity | undefined {
    return this.known.get(address);
  }

  remember(wallet: Wallet): WalletIdentity {
    const identity: WalletIdentity = {
      addressHash: wallet.addressHash,
      entityType: wallet.entityType,
      entityId: wallet.entityId,
      organizationId: wallet.organizationId,
      projectId: wallet.projectId,
      currency: wallet.currency,
    };
    if (this.known.size >= MAX_ENTRIES) this.known.clear();
    this.known.set(wallet.addressHash, identity);
    return identity;
  }
}
