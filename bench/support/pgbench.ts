import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface PgConnection {
  host: string;
  port: string;
  user: string;
}

/** The pgbench connection (host, port, user) of a PostgreSQL URL. */
export function pgTarget(url: string): PgConnection {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: u.port || '5432',
    user: decodeURIComponent(u.username) || 'postgres',
  };
}

/** The transfer into one hot account as plain SQL: 5 round trips (BEGIN, 3 statements, END). */
export const HOT_ACCOUNT_SCRIPT = `\\set aid random(2, 100000)
BEGIN;
UPDATE bench_account SET balance = balance - 1 WHERE id = :aid AND balance >= 1;
UPDATE bench_account SET balance = balance + 1 WHERE id = 1;
INSERT INTO bench_posting (from_id, to_id, amount) VALUES (:aid, 1, 1);
END;
`;

export const HOT_ACCOUNT_SCHEMA = `
CREATE TABLE bench_account (id int PRIMARY KEY, balance numeric(38,8) NOT NULL CHECK (balance >= 0));
CREATE TABLE bench_posting (id bigserial PRIMARY KEY, from_id int NOT NULL, to_id int NOT NULL,
  amount numeric(38,8) NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
INSERT INTO bench_account SELECT i, 1000000000 FROM generate_series(1, 100000) i;
`;

/**
 * The service's own ledger function driven by pgbench, no HTTP in between: what one transfer
 * costs PostgreSQL. `bench_wallet_index` maps 1..n to the benchmark's wallet addresses.
 */
export function walletMoveScript(wallets: number, hot: boolean): string {
  const to = hot
    ? `(SELECT address_hash FROM bench_wallet_index WHERE i = 0)`
    : `(SELECT address_hash FROM bench_wallet_index WHERE i = :b)`;
  return `\\set a random(1, ${wallets})
\\set b random(1, ${wallets})
SELECT r_entry_id FROM wallet_move('transfer', (SELECT address_hash FROM bench_wallet_index WHERE i = :a), 'CREDITS', 0.01, ${to}, 'CREDITS', '', '{}', NULL, 'pgbench', NULL, NULL, NULL, false, NULL) WHERE ${hot ? 'true' : ':a <> :b'};
`;
}

/** `pgbench -i -s <scale>`: the TPC-B-like tables. */
export async function pgbenchInit(
  pg: PgConnection,
  database: string,
  scale: number,
): Promise<void> {
  await run('pgbench', ['-i', '-q', '-s', String(scale), ...connection(pg), database], {
    maxBuffer: 16 * 1024 * 1024,
  });
}

/**
 * Runs pgbench for `seconds` with `clients` connections (2 threads, simple protocol, as a
 * client library would talk), the built-in TPC-B-like script or a script file.
 * @returns transactions per second (without initial connection time)
 */
export async function pgbench(
  pg: PgConnection,
  database: string,
  clients: number,
  seconds: number,
  scriptFile?: string,
): Promise<number> {
  const args = ['-n', '-c', String(clients), '-j', '2', '-T', String(seconds)];
  if (scriptFile) args.push('-f', scriptFile);
  const { stdout } = await run('pgbench', [...args, ...connection(pg), database], {
    maxBuffer: 16 * 1024 * 1024,
  });
  const match = /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout);
  if (!match) throw new Error(`unexpected pgbench output: ${stdout}`);
  return Number(match[1]);
}

function connection(pg: PgConnection): string[] {
  return ['-h', pg.host, '-p', pg.port, '-U', pg.user];
}
