import type { Operation } from '../lib/load.js';
import { accountActions } from './actions-identity.js';
import { analyticsActions } from './actions-analytics.js';
import { organizationActions } from './actions-org.js';
import { walletActions } from './actions-wallet.js';
import { mixContext } from './mix-kit.js';
import type { Account, Gateway } from './world.js';

/** Answers per action: successes and failures by reason (printed at the end). */
export class MixCounts {
  readonly ok = new Map<string, number>();
  readonly failed = new Map<string, number>();

  note(action: string, outcome: true | string): void {
    if (outcome === true) this.ok.set(action, (this.ok.get(action) ?? 0) + 1);
    else {
      const key = `${action}: ${outcome}`.slice(0, 200);
      this.failed.set(key, (this.failed.get(key) ?? 0) + 1);
    }
  }
}

/**
 * The soak's request mix, a day of a client app's traffic squeezed into the run: reads
 * dominate (token info, organizations, projects, settings, wallets, analytics), with a steady
 * trickle of writes (refreshes, logins, project renames and creations, settings, invitations
 * sent and cancelled, key pairs and passes, transfers, analytics batches) and of new tenants
 * (sign-up → organization → project, so every id-keyed structure in every service sees new keys
 * all the time). Each operation draws one action by weight.
 */
export function soakMix(gw: Gateway, accounts: Account[], counts: MixCounts): Operation {
  const ctx = mixContext(gw, accounts);
  const actions = [
    ...accountActions(ctx),
    ...organizationActions(ctx),
    ...walletActions(ctx),
    ...analyticsActions(ctx),
  ];
  const total = actions.reduce((sum, a) => sum + a.weight, 0);
  return async () => {
    let draw = Math.random() * total;
    const action = actions.find((a) => (draw -= a.weight) < 0) ?? actions[0];
    let outcome: true | string;
    try {
      outcome = await action.run();
    } catch (error) {
      outcome = (error as Error).message;
    }
    counts.note(action.name, outcome);
    return outcome;
  };
}
