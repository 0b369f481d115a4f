import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { closedLoop, httpOperation, type BenchRequest } from './lib/load.js';
import { median } from './lib/stats.js';
import { Platform, type PlatformMode as Mode } from './support/platform.js';
import { transactRequest } from './support/transact-request.js';

export const description =
  'embedded mode next to services mode: token/info and transfers through the gateway';

const PORT_BASE: Record<Mode, number> = { services: 38080, embedded: 39080 };

interface Figures {
  tokenInfo: number[];
  transfers: number[];
  errors: number;
}

/**
 * Embedded mode next to services mode (docs/architecture.md § Two modes), in one invocation:
 * each mode runs through `npm start` itself (scripts/start.js, the apps as child processes,
 * logs at `warn`) — services mode on this machine's PostgreSQL, Redis and NATS with databases,
 * key prefix and event namespace of its own; embedded mode with PostgreSQL from npm in a
 * temporary `DATA_DIR`. Through the gateway, `--runs` times: `GET /oauth/token/info` and wallet
 * transfers between random personal wallets (`POST /wallets/transact`), both closed loop with
 * `--clients` connections. Prints medians, embedded as a share of services (target ≥ 50 % for
 * both), and the size of the data directory after the run.
 *
 *   npm run bench -- modes [--runs 3] [--duration 8] [--clients 16] [--users 50]
 */
export async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      runs: { type: 'string', default: '3' },
      duration: { type: 'string', default: '8' },
      clients: { type: 'string', default: '16' },
      users: { type: 'string', default: '50' },
    },
  });
  const options = {
    runs: Number(values.runs),
    duration: Number(values.duration),
    clients: Number(values.clients),
    users: Number(values.users),
  };
  const results = new Map<Mode, Figures>();
  let dataSize = '';
  for (const mode of ['services', 'embedded'] as Mode[]) {
    const platform = await Platform.start(mode, { portBase: PORT_BASE[mode] });
    try {
      results.set(mode, await measure(platform, options));
      if (mode === 'embedded') dataSize = platform.dataSize();
    } finally {
      await platform.stop();
    }
  }
  report(results, options, dataSize);
}

interface Account {
  token: string;
  wallet: string;
}

async function measure(
  platform: Platform,
  options: { runs: number; duration: number; clients: number; users: number },
): Promise<Figures> {
  const pool = new Pool(platform.gateway, { connections: options.clients * 2 });
  const key = platform.env.keys.apiKey;
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown, extra = {}) => {
    const res = await pool.request({
      method,
      path: `/v1/api${path}`,
      headers: { 'api-key': key, 'content-type': 'application/json', ...extra },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.statusCode, body: (await res.body.json().catch(() => null)) as any };
  };
  process.stderr.write(`  seeding ${options.users} users with funded wallets…\n`);
  const accounts: Account[] = [];
  for (let i = 0; i < options.users; i++) {
    const email = `bench-${i}@modes.example.com`;
    const res = await call('POST', '/users', { username: email, password: 'a long password' });
    const token = res.body.data.attributes.accessToken as string;
    const auth = { authorization: `Bearer ${token}` };
    let wallet = '';
    for (let tries = 0; !wallet && tries < 100; tries++) {
      const list = await call('GET', '/wallets?entity_type=user', undefined, auth);
      wallet = list.body?.data?.[0]?.address_hash ?? '';
      if (!wallet) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const admin = { ...auth, 'admin-access': platform.env.keys.adminAccessToken };
    const credited = await call(
      'POST',
      `/wallets/${wallet}/credits`,
      { credit: { amount: 1e6, description: 'bench' } },
      admin,
    );
    if (credited.status !== 201) {
      throw new Error(`credit answered ${credited.status}: ${JSON.stringify(credited.body)}`);
    }
    accounts.push({ token, wallet });
  }
  const pick = () => accounts[Math.floor(Math.random() * accounts.length)];
  const tokenInfo = (): BenchRequest => ({
    method: 'GET',
    path: '/v1/api/oauth/token/info',
    headers: { 'api-key': key, authorization: `Bearer ${pick().token}` },
  });
  const transfer = (): BenchRequest => {
    const from = pick();
    let to = pick();
    while (to === from) to = pick();
    return transactRequest(key, from, to, 'bench');
  };
  const figures: Figures = { tokenInfo: [], transfers: [], errors: 0 };
  const loop = (next: () => BenchRequest, seconds: number) =>
    closedLoop({
      op: httpOperation(pool, next),
      connections: options.clients,
      durationMs: seconds * 1000,
    });
  await loop(tokenInfo, 1); // warm-up
  await loop(transfer, 1);
  for (let run = 1; run <= options.runs; run++) {
    const info = await loop(tokenInfo, options.duration);
    const moves = await loop(transfer, options.duration);
    figures.tokenInfo.push(info.rate);
    figures.transfers.push(moves.rate);
    figures.errors += info.errors + moves.errors;
    process.stderr.write(
      `  ${platform.mode} run ${run}: token/info ${info.rate.toFixed(0)}/s, transfers ${moves.rate.toFixed(0)}/s` +
        `${info.errors + moves.errors ? `; failures ${JSON.stringify([...info.errorSamples, ...moves.errorSamples])}` : ''}\n`,
    );
  }
  await pool.close();
  return figures;
}

function report(
  results: Map<Mode, Figures>,
  options: { runs: number; duration: number; clients: number },
  dataSize: string,
): void {
  const s = results.get('services')!;
  const e = results.get('embedded')!;
  const row = (name: string, services: number[], embedded: number[]) => {
    const a = median(services) ?? 0;
    const b = median(embedded) ?? 0;
    const share = a > 0 ? (100 * b) / a : 0;
    return `| ${name} | ${a.toFixed(0)}/s | ${b.toFixed(0)}/s | ${share.toFixed(0)} % | ≥ 50 % | ${share >= 50 ? 'met' : 'missed'} |`;
  };
  process.stdout.write(
    `\nEmbedded vs services mode through the gateway, c${options.clients}, medians of ${options.runs} run(s) of ${options.duration} s\n\n` +
      `| scenario | services | embedded | embedded / services | target | result |\n` +
      `| --- | --- | --- | --- | --- | --- |\n` +
      `${row('GET /oauth/token/info', s.tokenInfo, e.tokenInfo)}\n` +
      `${row('wallet transfers, random wallets', s.transfers, e.transfers)}\n\n` +
      `Failed requests: services ${s.errors}, embedded ${e.errors}. ` +
      `Embedded data directory after the run: ${dataSize}.\n`,
  );
}
