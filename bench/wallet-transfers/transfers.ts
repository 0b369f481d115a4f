// The transfer requests of the wallet-transfers bench: the random, hot and organization
// scenarios, and the priming pass.
import type { Pool } from 'undici';
import { type BenchRequest, request } from '../lib/load.js';
import { transactRequest } from '../support/transact-request.js';
import type { BenchUser } from './users.js';

/** The scenarios `--scenarios` may name. */
export const SCENARIOS = ['random', 'hot', 'organization'];

/**
 * The scenarios named in `selection` (`random,hot,organization`): request factories of transfers
 * between two random personal wallets, from a random one into `hot`, or out of a random
 * organization's wallet (by its ADMIN: the permission freshness check runs) into a random
 * personal wallet.
 */
export function transferScenarios(
  apiKey: string,
  wallets: { users: BenchUser[]; hot: BenchUser; organizations: BenchUser[] },
  selection: string,
): Record<string, () => BenchRequest> {
  const { users, hot, organizations } = wallets;
  const index = () => Math.floor(Math.random() * users.length);
  const pick = () => users[index()];
  const allScenarios: Record<string, () => BenchRequest> = {
    random: () => {
      const from = pick();
      let to = pick();
      while (to === from) to = pick();
      return transactRequest(apiKey, from, to);
    },
    hot: () => transactRequest(apiKey, pick(), hot),
    organization: () => {
      const from = index();
      let to = index();
      while (to === from) to = index();
      return transactRequest(apiKey, organizations[from], users[to]);
    },
  };
  return Object.fromEntries(
    selection.split(',').map((name) => {
      if (!allScenarios[name])
        throw new Error(`unknown scenario ${name} (${SCENARIOS.join(', ')})`);
      return [name, allScenarios[name]];
    }),
  );
}

/** Steady state: every wallet has moved money once (identities known, code paths warm). */
export async function primeWallets(
  http: Pool,
  apiKey: string,
  users: BenchUser[],
  hot: BenchUser,
): Promise<void> {
  const primed = [...users];
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      for (let u = primed.pop(); u; u = primed.pop()) {
        await request(http, { ...transactRequest(apiKey, u, hot), raw: true });
      }
    }),
  );
}
