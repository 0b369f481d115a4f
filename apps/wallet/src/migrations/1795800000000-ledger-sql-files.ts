import { join } from 'node:path';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { readLedgerSql } from '../modules/ledger/sql/ledger-sql.js';

/**
 * Hand-written: loads the ledger's SQL from its one source, the files in
 * `modules/ledger/sql/*.sql` (docs/wallet.md § Ledger), with `CREATE OR REPLACE`.
 *
 * The definitions it loads are those the earlier migrations left (`LedgerFunctions`,
 * `WalletMoveChecksSource`, `WalletMoveBatchMulti`), reindented and commented, so nothing
 * changes in behaviour; from here on a change to the ledger SQL is an edit of those files plus a
 * new migration like this one (the steps are in docs/wallet.md § Ledger).
 * `test/e2e/ledger-sql.e2e-spec.ts` checks that a migrated database holds exactly what the files
 * define, and that the files still hash to {@link LedgerSqlFiles1795800000000.ledgerSqlSha256}
 * of the newest such migration (an edit without a migration fails there).
 *
 * `down()` restores the previous definitions from the frozen copy in
 * `ledger-sql/1795700000000/` (verbatim as the earlier migrations wrote them).
 */
export class LedgerSqlFiles1795800000000 implements MigrationInterface {
  name = 'LedgerSqlFiles1795800000000';

  /** SHA-256 of the ledger SQL files this migration was written for (see the e2e test). */
  static readonly ledgerSqlSha256 =
    '1d063322b5d7195a83872f533fe8d1d2ac6dd67c2b51713bc1603d6cd2275090';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const { sql } of readLedgerSql()) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const { sql } of readLedgerSql(join(__dirname, 'ledger-sql', '1795700000000'))) {
      await queryRunner.query(sql);
    }
  }
}
