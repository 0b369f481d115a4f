import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The folder of the ledger's SQL (docs/wallet.md § Ledger): `wallet_move`, `wallet_move_batch`,
 * `wallet_entry_result`, and the triggers that keep postings balanced and the journal
 * append-only, one `.sql` file each beside this module. They are the one source of those
 * definitions; the build copies them next to the compiled code (`scripts/copy-assets.js`).
 */
export const LEDGER_SQL_DIR = __dirname;

/**
 * The `.sql` files of a folder (by default {@link LEDGER_SQL_DIR}) as `{file, sql}`, sorted by
 * name. Every file stands alone (`CREATE OR REPLACE`, a trigger after its own function), so they
 * load in any order; each may hold several statements, run with the simple query protocol
 * (`QueryRunner.query` without parameters).
 * @throws when the folder cannot be read (e.g. a build that did not copy the files).
 */
export function readLedgerSql(dir: string = LEDGER_SQL_DIR): { file: string; sql: string }[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((file) => ({ file, sql: readFileSync(join(dir, file), 'utf8') }));
}
