import { Injectable } from '@nestjs/common';
import { Outbox } from '@wp/messaging';
import { preparedQuery, type PreparedStatement, TxHost } from '@wp/persistence';
import { DataSource } from 'typeorm';
import { Amount } from '../../common/amount.js';
import type { BalanceView, WalletBalances } from '../wallets/wallet-balances.js';
import type { JournalEntryType } from './journal-entry.entity.js';
import type { MovementPointers } from '../../common/ledger-error.js';
import { ledgerErrorFromDatabase, sqlState } from './ledger.errors.js';
import type { MoveCommand, MoveResult } from './ledger-moves.js';
import { LedgerMetrics } from './ledger.metrics.js';
import { WALLET_MOVE_ANNOUNCED, WALLET_MOVE_BATCH_ANNOUNCED } from './announced-moves.js';
import { TransactionAnnouncements } from './transaction-announcements.js';

/** A posting of one wallet with its journal entry: a line of the transaction history. */
export interface HistoryLine {
  postingId: string;
  entryId: string;
  type: JournalEntryType;
  asset: string;
  amount: Amount;
  balanceAfter: Amount | null;
  counterparty: string | null;
  description: string;
  metadata: Record<string, unknown>;
  referenceId: string | null;
  transferRequestId: string | null;
  createdAt: Date;
}

interface MoveRow {
  r_entry_id: string;
  r_replayed: boolean;
  r_created_at: Date;
  r_amount: string;
  r_to_amount: string;
  r_rate: string | null;
  r_from_balance: string | null;
  r_to_balance: string | null;
  /** Outbox rows the announcing statements wrote (absent from the plain ones). */
  r_announced?: number;
}

/** One movement, one statement (prepared once per connection). */
const WALLET_MOVE: PreparedStatement = {
  name: 'wallet_move',
  text: 'SELECT * FROM wallet_move($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)',
};
/** Group commit: many movements in one transaction (docs/wallet.md § Group commit). */
const WALLET_MOVE_BATCH: PreparedStatement = {
  name: 'wallet_move_batch',
  text: 'SELECT * FROM wallet_move_batch($1::jsonb)',
};

/** The only file of the ledger that touches the database. */
@Injectable()
export class LedgerRepository implements WalletBalances {
  constructor(
    private readonly txHost: TxHost,
    private readonly dataSource: DataSource,
    private readonly metrics: LedgerMetrics,
    private readonly announcements: TransactionAnnouncements,
    private readonly outbox: Outbox,
  ) {}

  /**
   * Runs one movement as a single statement: its own transaction, or inside the caller's when
   * a boundary is open in the async context (`TxHost`). Alone, a debit, transfer or conversion
   * is announced to org's webhooks in the same statement when an organization wants it
   * ({@link TransactionAnnouncements}); inside a boundary the caller's command has events of its
   * own (credits, transfer requests).
   * @throws LedgerError for the business outcomes the function raises (insufficient funds,
   *   idempotency key reuse, unknown recipient, …), pointing at `pointers`.
   */
  async move(command: MoveCommand, pointers: MovementPointers): Promise<MoveResult> {
    let rows: MoveRow[];
    try {
      if (this.txHost.isTransactionActive())
        rows = await this.txHost.tx.query(WALLET_MOVE.text, moveParams(command));
      else if (this.announcements.announces(command.type)) {
        const params = [...moveParams(command), command.actorType ?? 'user'];
        rows = await preparedQuery<MoveRow>(this.dataSource, WALLET_MOVE_ANNOUNCED, params);
      } else rows = await preparedQuery<MoveRow>(this.dataSource, WALLET_MOVE, moveParams(command));
    } catch (error) {
      this.metrics.refused(command, sqlState(error));
      throw ledgerErrorFromDatabase(error, pointers);
    }
    const result = toMoveResult(rows[0]);
    this.metrics.posted(command, result);
    this.announced(rows);
    return result;
  }

  /**
   * Runs several movements in ONE transaction (group commit, `wallet_move_batch`): each item
   * succeeds or fails on its own (a failed item is rolled back alone); the successful ones
   * commit together. Answers in the order of `commands`: a result, or the database error of
   * that item (`code` = SQLSTATE, for {@link ledgerErrorFromDatabase}).
   * @throws the database error when the batch as a whole failed (nothing was moved)
   */
  async moveBatch(commands: MoveCommand[]): Promise<(MoveResult | BatchItemError)[]> {
    const announce = commands.some((c) => this.announcements.announces(c.type));
    const items = commands.map((command) => ({
      type: command.type,
      from: command.from,
      from_asset: command.fromAsset,
      amount: command.amount.text,
      to: command.to,
      to_asset: command.toAsset,
      description: command.description,
      metadata: command.metadata,
      reference_id: command.referenceId,
      initiated_by: command.initiatedBy,
      idempotency_scope: command.idempotency?.scope ?? null,
      idempotency_key: command.idempotency?.key ?? null,
      fingerprint: command.idempotency?.fingerprint ?? null,
      source_held: command.sourceHeld ?? false,
      transfer_request_id: command.transferRequestId ?? null,
      ...(announce ? { actor_type: command.actorType ?? 'user' } : {}),
    }));
    const statement = announce ? WALLET_MOVE_BATCH_ANNOUNCED : WALLET_MOVE_BATCH;
    const rows: (MoveRow & {
      r_index: number;
      r_sqlstate: string | null;
      r_message: string | null;
    })[] = await preparedQuery(this.dataSource, statement, [JSON.stringify(items)]);
    this.announced(rows);
    const out = new Array<MoveResult | BatchItemError>(commands.length);
    for (const row of rows) {
      const command = commands[row.r_index];
      if (row.r_sqlstate === null) {
        const result = toMoveResult(row);
        this.metrics.posted(command, result);
        out[row.r_index] = result;
      } else {
        this.metrics.refused(command, row.r_sqlstate);
        out[row.r_index] = new BatchItemError(row.r_sqlstate, row.r_message ?? '');
      }
    }
    return out;
  }

  /** Wakes the outbox relay after a statement that wrote announcements (it committed). */
  private announced(rows: MoveRow[]): void {
    if ((rows[0]?.r_announced ?? 0) > 0) this.outbox.committed({ outbox: true });
  }

  /** Balances of the given wallets (rows that exist; a missing row is a zero balance). */
  async balancesOf(addresses: string[]): Promise<BalanceView[]> {
    if (addresses.length === 0) return [];
    const rows: { wallet_address: string; asset: string; available: string; held: string }[] =
      await this.dataSource.query(
        `SELECT wallet_address, asset, available, held FROM balance
         WHERE wallet_address = ANY($1::bpchar[]) ORDER BY wallet_address, asset`,
        [addresses],
      );
    return rows.map((r) => ({
      walletAddress: r.wallet_address,
      asset: r.asset,
      available: Amount.fromNumeric(r.available),
      held: Amount.fromNumeric(r.held),
    }));
  }

  /** One page of a wallet's postings, newest first, and how many there are. */
  async history(
    address: string,
    offset: number,
    limit: number,
  ): Promise<{ lines: HistoryLine[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.dataSource.query<HistoryRow[]>(
        `SELECT p.id AS posting_id, p.entry_id, j.type, p.asset, p.amount, p.balance_after,
                p.counterparty_address, j.description, j.metadata, j.reference_id,
                j.transfer_request_id, p.created_at
         FROM posting p JOIN journal_entry j ON j.id = p.entry_id
         WHERE p.wallet_address = $1
         ORDER BY p.id DESC OFFSET $2 LIMIT $3`,
        [address, offset, limit],
      ),
      this.dataSource.query<{ n: number }[]>(
        'SELECT count(*)::int AS n FROM posting WHERE wallet_address = $1',
        [address],
      ),
    ]);
    return { lines: rows.map(toHistoryLine), total: count[0].n };
  }

  /**
   * Moves `amount` from available to held (a transfer request's reservation).
   * @returns false when the available balance is too small (nothing changed)
   */
  async reserve(address: string, asset: string, amount: Amount): Promise<boolean> {
    // TypeORM answers an UPDATE with [rows, affected count].
    const [, affected]: [unknown[], number] = await this.txHost.tx.query(
      `UPDATE balance SET available = available - $3, held = held + $3, updated_at = now()
       WHERE wallet_address = $1 AND asset = $2 AND available >= $3`,
      [address, asset, amount.text],
    );
    return affected === 1;
  }

  /** Returns a reservation to the available balance (a voided transfer request). */
  async release(address: string, asset: string, amount: Amount): Promise<void> {
    await this.txHost.tx.query(
      `UPDATE balance SET available = available + $3, held = held - $3, updated_at = now()
       WHERE wallet_address = $1 AND asset = $2`,
      [address, asset, amount.text],
    );
  }
}

interface HistoryRow {
  posting_id: string;
  entry_id: string;
  type: JournalEntryType;
  asset: string;
  amount: string;
  balance_after: string | null;
  counterparty_address: string | null;
  description: string;
  metadata: Record<string, unknown>;
  reference_id: string | null;
  transfer_request_id: string | null;
  created_at: Date;
}

function toHistoryLine(r: HistoryRow): HistoryLine {
  return {
    postingId: String(r.posting_id),
    entryId: r.entry_id,
    type: r.type,
    asset: r.asset,
    amount: Amount.fromNumeric(r.amount),
    balanceAfter: r.balance_after === null ? null : Amount.fromNumeric(r.balance_after),
    counterparty: r.counterparty_address,
    description: r.description,
    metadata: r.metadata,
    referenceId: r.reference_id,
    transferRequestId: r.transfer_request_id,
    createdAt: new Date(r.created_at),
  };
}

/** A failed item of a batch: the SQLSTATE and message of its error, shaped like a pg error. */
export class BatchItemError extends Error {
  /** The violated constraint, when the message names one (a balance check, …). */
  readonly constraint: string | undefined;

  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.constraint = /constraint "([^"]+)"/.exec(message)?.[1];
  }
}

/** The positional parameters of `wallet_move`. */
function moveParams(command: MoveCommand): unknown[] {
  return [
    command.type,
    command.from,
    command.fromAsset,
    command.amount.text,
    command.to,
    command.toAsset,
    command.description,
    JSON.stringify(command.metadata),
    command.referenceId,
    command.initiatedBy,
    command.idempotency?.scope ?? null,
    command.idempotency?.key ?? null,
    command.idempotency?.fingerprint ?? null,
    command.sourceHeld ?? false,
    command.transferRequestId ?? null,
  ];
}

function toMoveResult(row: MoveRow): MoveResult {
  return {
    entryId: row.r_entry_id,
    replayed: row.r_replayed,
    createdAt: new Date(row.r_created_at),
    amount: Amount.fromNumeric(row.r_amount),
    toAmount: Amount.fromNumeric(row.r_to_amount),
    rate: row.r_rate === null ? null : Amount.fromNumeric(row.r_rate),
    fromBalance: row.r_from_balance === null ? null : Amount.fromNumeric(row.r_from_balance),
    toBalance: row.r_to_balance === null ? null : Amount.fromNumeric(row.r_to_balance),
  };
}
