import { Client } from 'pg';

/**
 * Whether the PostgreSQL server behind `connectionString` runs without autovacuum (`SHOW
 * autovacuum`). Some development servers (this workplace's among them) switch it off; then dead
 * row versions of every update pile up for the whole benchmark, and each run is slower than the
 * one before it, for the service and for pgbench's ceilings alike, by amounts that depend on
 * how much each has written so far.
 */
export async function autovacuumOff(connectionString: string): Promise<boolean> {
  return withClient(connectionString, async (client) => {
    const { rows } = await client.query<{ autovacuum: string }>('SHOW autovacuum');
    return rows[0]?.autovacuum === 'off';
  });
}

/**
 * `VACUUM ANALYZE` of the whole database: what autovacuum would have done between two
 * measurements. Run before every measurement, scenario and ceiling alike, when
 * {@link autovacuumOff}.
 */
export async function vacuumAnalyze(connectionString: string): Promise<void> {
  await withClient(connectionString, (client) => client.query('VACUUM ANALYZE'));
}

async function withClient<T>(connectionString: string, work: (client: Client) => Promise<T>) {
  const client = new Client({ connectionString });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
