import { TxHost } from '@wp/persistence';
import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { DomainError } from '@wp/http';
import { pageMeta, pageOffset, type PageMeta } from '@wp/http';
import { Outbox } from '@wp/messaging';
import type { Principal } from '@wp/security';
import { Amount } from '../../common/amount.js';
import { WALLET_CONFIG, type WalletConfig } from '../../config/wallet.config.js';
import { AssetsService } from '../assets/assets.service.js';
import { DirectoryRepository, type Contact } from '../directory/directory.repository.js';
import { LedgerError } from '../../common/ledger-error.js';
import { LedgerRepository } from '../ledger/ledger.repository.js';
import { InsufficientPermissionsError } from '../wallets/wallets.errors.js';
import { WalletAccess } from '../wallets/wallet-access.js';
import type { TransferDto } from './dto/transfer.dto.js';
import { TransferCodes } from './transfer-codes.js';
import { TransferEvents } from './transfer-events.js';
import {
  recipientCodeMessage,
  senderCodeMessage,
  type TransferMailFacts,
} from './transfer-mails.js';
import {
  TransferRequest,
  type TransferFailureReason,
  type TransferStatus,
} from './transfer-request.entity.js';
import { toTransferRecord, type TransferRecord } from './transfer.serializer.js';
import {
  InvalidVerificationCodeError,
  TransferNotFoundError,
  TransferNotPendingError,
  VerificationLockedError,
} from './transfers.errors.js';
import { TransfersRepository } from './transfers.repository.js';

type StepOutcome = { transfer: TransferRequest } | { error: DomainError };

const PENDING_LIMIT = 100;

/**
 * Two-party transfer requests (docs/architecture.md § Transfer requests; docs/wallet.md):
 *
 * create → `pending_sender_verification` (code mailed to the creator) → `verify_sender`
 * reserves the amount (available → held) → `pending_recipient_acceptance` (code mailed to whoever
 * controls the destination: the user, or the organization's / project's OWNERs and ADMINs) →
 * `accept` posts the held amount to the destination → `completed`. `reject` (either side),
 * expiry of the pending step, or the last allowed wrong code void it (the hold returns to
 * available) → `rejected` / `expired`. Every step locks the request row first, so two racing
 * accepts move the money once and a step after a void moves nothing.
 *
 * A step that fails after changing state (a wrong code counted, an expiry noticed) commits that
 * change and then answers with the error.
 */
@Injectable()
export class TransfersService {
  private readonly logger = new Logger('Transfers');

  constructor(
    private readonly transfers: TransfersRepository,
    private readonly access: WalletAccess,
    private readonly ledger: LedgerRepository,
    private readonly assets: AssetsService,
    private readonly directory: DirectoryRepository,
    private readonly outbox: Outbox,
    private readonly codes: TransferCodes,
    private readonly events: TransferEvents,
    private readonly txHost: TxHost,
    @Inject(WALLET_CONFIG) private readonly config: WalletConfig,
  ) {}

  /** `POST /wallet_transfers`: the caller must control `from_wallet`; 201 `{transfer}`. */
  async create(principal: Principal, input: TransferDto): Promise<TransferRecord> {
    const from = await this.access.require(principal, input.from_wallet, 'control');
    const to = await this.access.findAny(input.to_wallet);
    if (!to) {
      throw new LedgerError('RECIPIENT_NOT_FOUND', 'No wallet has this address.', {
        pointer: '/transfer/to_wallet',
      });
    }
    for (const [wallet, pointer] of [
      [from, '/transfer/from_wallet'],
      [to, '/transfer/to_wallet'],
    ] as const) {
      if (wallet.closedAt !== null) {
        throw new LedgerError('WALLET_CLOSED', 'This wallet is closed.', { pointer });
      }
    }
    if (from.addressHash === to.addressHash) {
      throw new LedgerError('NOTHING_TO_MOVE', 'from_wallet and to_wallet are the same.', {
        pointer: '/transfer/to_wallet',
      });
    }
    const asset = input.asset ?? 'CREDITS';
    this.assets.requireKnown(asset, { pointer: '/transfer/asset' });

    const code = this.codes.generate();
    const transfer = Object.assign(new TransferRequest(), {
      id: randomUUID(),
      fromWallet: from.addressHash,
      toWallet: to.addressHash,
      asset,
      amount: Amount.fromNumber(input.amount).text,
      description: input.description ?? '',
      status: 'pending_sender_verification',
      failureReason: null,
      initiatedBy: principal.id,
      codeExpiresAt: this.deadline(),
      attempts: 0,
      journalEntryId: null,
      decidedBy: null,
    } satisfies Partial<TransferRequest>);
    transfer.codeHmac = this.codes.digest(transfer.id, 'sender', code);
    const contacts = await this.contactsOf([principal.id], principal.email);
    const saved = await this.txHost.withTransaction(async () => {
      const row = await this.transfers.insert(transfer);
      await this.notify(contacts, senderCodeMessage, this.facts(row, code));
      await this.events.changed(row, principal);
      return row;
    });
    return this.record(saved);
  }

  /**
   * `POST /wallet_transfers/{id}/verify_sender`: the creator's code; reserves the amount and
   * mails the recipient code. 422 `INSUFFICIENT_FUNDS` leaves the request as it was.
   */
  async verifySender(principal: Principal, id: string, code: string): Promise<TransferRecord> {
    const transfer = await this.visible(principal, id);
    if (transfer.initiatedBy !== principal.id) {
      throw new InsufficientPermissionsError(
        'Only the user who created the transfer request confirms it.',
      );
    }
    if (!(await this.access.allows(principal, transfer.fromWallet, 'control'))) {
      throw new InsufficientPermissionsError(
        'You no longer control the source wallet, so you cannot confirm this transfer.',
      );
    }
    const to = await this.access.findAny(transfer.toWallet);
    const contacts = await this.contactsOf(to ? await this.access.controllersOf(to) : [], null);
    return this.step(id, 'pending_sender_verification', async (t) => {
      if (!this.codes.verify(t.codeHmac, t.id, 'sender', code)) return this.wrongCode(t);
      if (!(await this.ledger.reserve(t.fromWallet, t.asset, Amount.fromNumeric(t.amount)))) {
        throw new LedgerError(
          'INSUFFICIENT_FUNDS',
          'The source wallet does not hold enough of the asset; nothing was reserved.',
        );
      }
      const recipientCode = this.codes.generate();
      t.status = 'pending_recipient_acceptance';
      t.codeHmac = this.codes.digest(t.id, 'recipient', recipientCode);
      t.codeExpiresAt = this.deadline();
      t.attempts = 0;
      await this.transfers.save(t);
      await this.notify(contacts, recipientCodeMessage, this.facts(t, recipientCode));
      return { transfer: t };
    });
  }

  /**
   * `POST /wallet_transfers/{id}/accept`: the recipient's code, by someone who controls the
   * destination; posts the held amount (one journal entry, type `transfer_request`).
   */
  async accept(principal: Principal, id: string, code: string): Promise<TransferRecord> {
    const transfer = await this.visible(principal, id);
    if (!(await this.access.allows(principal, transfer.toWallet, 'control'))) {
      throw new InsufficientPermissionsError(
        'Only whoever controls the destination wallet may accept the transfer.',
      );
    }
    return this.step(id, 'pending_recipient_acceptance', async (t) => {
      if (!this.codes.verify(t.codeHmac, t.id, 'recipient', code)) {
        return this.wrongCode(t);
      }
      const result = await this.ledger.move(
        {
          type: 'transfer_request',
          from: t.fromWallet,
          fromAsset: t.asset,
          amount: Amount.fromNumeric(t.amount),
          to: t.toWallet,
          toAsset: t.asset,
          description: t.description,
          metadata: {},
          referenceId: null,
          initiatedBy: principal.id,
          idempotency: null,
          sourceHeld: true,
          transferRequestId: t.id,
        },
        {},
      );
      t.status = 'completed';
      t.journalEntryId = result.entryId;
      t.decidedBy = principal.id;
      t.codeHmac = null;
      await this.transfers.save(t);
      await this.events.changed(t, principal);
      return { transfer: t };
    });
  }

  /**
   * `POST /wallet_transfers/{id}/reject`: by the sender side (creator, or whoever controls the
   * source) or the recipient side; voids the request and returns any hold.
   */
  async reject(principal: Principal, id: string): Promise<TransferRecord> {
    const transfer = await this.visible(principal, id);
    const senderSide =
      transfer.initiatedBy === principal.id ||
      (await this.access.allows(principal, transfer.fromWallet, 'control'));
    if (!senderSide && !(await this.access.allows(principal, transfer.toWallet, 'control'))) {
      throw new InsufficientPermissionsError(
        'Only the sender or whoever controls the destination wallet may reject the transfer.',
      );
    }
    const reason: TransferFailureReason = senderSide
      ? 'rejected_by_sender'
      : 'rejected_by_recipient';
    return this.step(id, 'any_pending', async (t) => {
      await this.void(t, 'rejected', reason, principal);
      return { transfer: t };
    });
  }

  /** `GET /wallet_transfers`: requests the caller started or that touch a wallet they can see. */
  async list(
    principal: Principal,
    page = 1,
    perPage = 20,
  ): Promise<{ data: TransferRecord[]; meta: PageMeta }> {
    const addresses = await this.access.addressesFor(principal, 'read');
    const { transfers, total } = await this.transfers.listFor(
      principal.id,
      addresses,
      pageOffset(page, perPage),
      perPage,
    );
    return { data: transfers.map((t) => this.record(t)), meta: pageMeta(page, perPage, total) };
  }

  /** `GET /wallet_transfers/pending`: what awaits the caller's code (at most 100, newest first). */
  async pending(principal: Principal): Promise<{ data: TransferRecord[] }> {
    const controlled = await this.access.addressesFor(principal, 'control');
    const transfers = await this.transfers.pendingFor(principal.id, controlled, PENDING_LIMIT);
    return { data: transfers.map((t) => this.record(t)) };
  }

  /**
   * Voids pending requests past their deadline (the sweeper): holds return to available.
   * @returns how many were expired
   */
  async expireDue(limit = 100): Promise<number> {
    return this.txHost.withTransaction(async () => {
      const due = await this.transfers.claimExpired(limit);
      // Balance rows in (wallet, asset) order, as the ledger function locks them.
      due.sort((a, b) => compare(`${a.fromWallet}:${a.asset}`, `${b.fromWallet}:${b.asset}`));
      for (const t of due) await this.void(t, 'expired', 'expired', null);
      return due.length;
    });
  }

  /** Runs a step on the locked request if it is (still) in `expected`; expires it if overdue. */
  private async step(
    id: string,
    expected: TransferStatus | 'any_pending',
    body: (transfer: TransferRequest) => Promise<StepOutcome>,
  ): Promise<TransferRecord> {
    const outcome = await this.txHost.withTransaction(async (): Promise<StepOutcome> => {
      const t = await this.transfers.lock(id);
      if (!t) return { error: new TransferNotFoundError() };
      const wanted = expected === 'any_pending' ? 'pending_recipient_acceptance' : expected;
      if (isPending(t.status) && t.codeExpiresAt.getTime() <= Date.now()) {
        await this.void(t, 'expired', 'expired', null);
        return { error: new TransferNotPendingError('expired', wanted) };
      }
      const ok = expected === 'any_pending' ? isPending(t.status) : t.status === expected;
      if (!ok) return { error: new TransferNotPendingError(t.status, wanted) };
      return body(t);
    });
    if ('error' in outcome) throw outcome.error;
    return this.record(outcome.transfer);
  }

  private async wrongCode(t: TransferRequest): Promise<StepOutcome> {
    t.attempts += 1;
    const max = this.config.WALLET_TRANSFER_MAX_ATTEMPTS;
    if (t.attempts >= max) {
      await this.void(t, 'rejected', 'too_many_attempts', null);
      return { error: new VerificationLockedError() };
    }
    await this.transfers.save(t);
    return { error: new InvalidVerificationCodeError(max - t.attempts) };
  }

  private async void(
    t: TransferRequest,
    status: 'rejected' | 'expired',
    reason: TransferFailureReason,
    by: Principal | null,
  ): Promise<void> {
    if (t.status === 'pending_recipient_acceptance') {
      await this.ledger.release(t.fromWallet, t.asset, Amount.fromNumeric(t.amount));
    }
    t.status = status;
    t.failureReason = reason;
    t.codeHmac = null;
    t.decidedBy = by?.id ?? null;
    await this.transfers.save(t);
    await this.events.changed(t, by);
  }

  /** The request if the caller started it or may read one of its wallets; else 404. */
  private async visible(principal: Principal, id: string): Promise<TransferRequest> {
    const transfer = await this.transfers.findById(id);
    if (!transfer) throw new TransferNotFoundError();
    if (transfer.initiatedBy === principal.id) return transfer;
    if (
      (await this.access.allows(principal, transfer.fromWallet, 'read')) ||
      (await this.access.allows(principal, transfer.toWallet, 'read'))
    ) {
      return transfer;
    }
    throw new TransferNotFoundError();
  }

  private async contactsOf(userIds: string[], fallbackEmail: string | null): Promise<Contact[]> {
    const contacts = await this.directory.contacts(userIds);
    for (const userId of userIds) {
      if (!contacts.some((c) => c.userId === userId) && fallbackEmail) {
        contacts.push({ userId, email: fallbackEmail, phone: null });
      }
    }
    return contacts;
  }

  private async notify(
    contacts: Contact[],
    compose: typeof senderCodeMessage,
    facts: TransferMailFacts,
  ): Promise<void> {
    if (contacts.length === 0) {
      this.logger.warn(`transfer ${facts.transferId}: nobody to send the code to`);
    }
    for (const contact of contacts) {
      const message = compose(contact, facts);
      if (message) await this.outbox.enqueue('notify.requested', message);
    }
  }

  private facts(t: TransferRequest, code: string): TransferMailFacts {
    return {
      transferId: t.id,
      fromWallet: t.fromWallet,
      toWallet: t.toWallet,
      amount: Amount.fromNumeric(t.amount).text,
      asset: t.asset,
      code,
      minutes: Math.max(1, Math.round(this.config.WALLET_TRANSFER_CODE_TTL_SECONDS / 60)),
    };
  }

  private deadline(): Date {
    return new Date(Date.now() + this.config.WALLET_TRANSFER_CODE_TTL_SECONDS * 1000);
  }

  private record(t: TransferRequest): TransferRecord {
    return toTransferRecord(t, this.config.WALLET_TRANSFER_MAX_ATTEMPTS);
  }
}

function isPending(status: TransferStatus): boolean {
  return status === 'pending_sender_verification' || status === 'pending_recipient_acceptance';
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
