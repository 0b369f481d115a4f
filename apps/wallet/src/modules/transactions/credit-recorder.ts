import { TxHost } from '@wp/persistence';
import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { AuditEntry } from '@wp/contracts';
import type { RequestMeta } from '@wp/http';
import { Outbox } from '@wp/messaging';
import type { Principal } from '@wp/security';
import type { Amount } from '../../common/amount.js';
import type { MovementPointers } from '../../common/ledger-error.js';
import { KeyedLimiter } from '../ledger/keyed-limiter.js';
import type { MoveCommand, MoveResult } from '../ledger/ledger-moves.js';
import { LedgerRepository } from '../ledger/ledger.repository.js';
import type { WalletIdentity } from '../wallets/wallet-identities.js';

/**
 * Runs an Admin-Access credit (`POST /wallets/{addressHash}/credits`) with its audit entry:
 * the ledger call and `wallet.audit.recorded` (action `wallet.credited`) commit in ONE
 * transaction, so the organization audit log has every credit and nothing else
 * (docs/org.md § Audit log; docs/wallet.md § Credits in the audit log). Credits are operator
 * actions, rare: they skip the group commit of transfers but keep the per-balance limiter.
 * An idempotent replay records nothing new.
 */
@Injectable()
export class CreditRecorder {
  constructor(
    private readonly txHost: TxHost,
    private readonly ledger: LedgerRepository,
    private readonly limiter: KeyedLimiter,
    private readonly outbox: Outbox,
  ) {}

  async credit(
    command: MoveCommand,
    pointers: MovementPointers,
    wallet: WalletIdentity,
    principal: Principal,
    meta: RequestMeta,
  ): Promise<MoveResult> {
    const key = `${command.to}:${command.toAsset}`;
    return this.limiter.run([key], () =>
      this.txHost.withTransaction(async () => {
        const result = await this.ledger.move(command, pointers);
        const entry = result.replayed
          ? null
          : creditEntry(wallet, principal, meta, command.amount, command.toAsset, result.entryId);
        if (entry) await this.outbox.enqueue('wallet.audit.recorded', { entries: [entry] });
        return result;
      }),
    );
  }
}

/**
 * The audit entry of a credit: in the wallet's organization (organization, project and agent
 * wallets), or for a personal wallet user-level (stored in every organization of its owner);
 * null when the wallet belongs to neither.
 */
function creditEntry(
  wallet: WalletIdentity,
  principal: Principal,
  meta: RequestMeta,
  amount: Amount,
  asset: string,
  entryId: string,
): AuditEntry | null {
  const subjectUserId = wallet.entityType === 'user' ? wallet.entityId : null;
  if (wallet.organizationId === null && subjectUserId === null) return null;
  return {
    id: randomUUID(),
    action: 'wallet.credited',
    outcome: 'success',
    occurredAt: new Date().toISOString(),
    organizationId: wallet.organizationId,
    subjectUserId: wallet.organizationId === null ? subjectUserId : null,
    actor: { type: principal.type, id: principal.id, email: principal.email },
    target: {
      type: 'wallet',
      id: wallet.addressHash,
      label: `${wallet.entityType} ${wallet.entityId}`,
    },
    clientAddress: meta.clientAddress,
    requestId: meta.requestId,
    userAgent: meta.userAgent,
    details: {
      amount: amount.text,
      asset,
      journalEntryId: entryId,
      adminAccess: true,
      // The project of a project's or agent's wallet (webhooks scope the credit to it).
      ...(wallet.projectId !== null ? { projectId: wallet.projectId } : {}),
    },
  };
}
