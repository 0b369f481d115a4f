// The wallet-transfers bench's ledger audit, run in one read-only snapshot of the wallet database.
import { Client } from 'pg';
import {
  auditLedger,
  type LedgerAuditReport,
} from '../../apps/wallet/src/modules/ledger/ledger-audit.js';

export async function auditInSnapshot(url: string): Promise<LedgerAuditReport> {
  const client = new Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const report = await auditLedger(async (sql) => (await client.query(sql)).rows);
    await client.query('COMMIT');
    return report;
  } finally {
    await client.end();
  }
}
