import { call, type Account, type Gateway } from './world.js';

/** One kind of request of the mix, drawn with probability weight ÷ total. */
export interface Action {
  name: string;
  weight: number;
  run: () => Promise<true | string>;
}

/** `true` for the expected statuses, else the failure's name. */
export const status =
  (...ok: number[]) =>
  (res: { status: number }): true | string =>
    ok.includes(res.status) ? true : `HTTP ${res.status}`;

/** What every group of actions needs: the gateway, the seeded users and path helpers. */
export interface MixContext {
  gw: Gateway;
  accounts: Account[];
  /** A seeded user, uniformly at random. */
  pick: () => Account;
  /** `/organizations/{id}` of the user's organization. */
  org: (a: Account) => string;
  /** `/organizations/{id}/projects/{id}` of the user's project. */
  project: (a: Account) => string;
  /** `GET` as the user. */
  get: (a: Account, path: string) => ReturnType<typeof call>;
}

export function mixContext(gw: Gateway, accounts: Account[]): MixContext {
  const org = (a: Account) => `/organizations/${a.organizationId}`;
  return {
    gw,
    accounts,
    pick: () => accounts[Math.floor(Math.random() * accounts.length)],
    org,
    project: (a) => `${org(a)}/projects/${a.projectId}`,
    get: (a, path) => call(gw, 'GET', path, { token: a.token }),
  };
}
