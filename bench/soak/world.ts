import { randomUUID } from 'node:crypto';
import type { Pool } from 'undici';
import { request } from '../lib/load.js';
import type { Platform } from '../support/platform.js';

/** One signed-up user of the soak load, with the organization and project it created. */
export interface Account {
  email: string;
  password: string;
  token: string;
  refreshToken: string;
  organizationId: number;
  projectId: number;
  /** The project's analytics key pair (`GET …/projects/{id}?secret=true`, `meta.secrets`). */
  keys: { publicKey: string; secretKey: string };
  /** The personal wallet (address hash), credited at seeding. */
  wallet: string;
}

/** What the load needs to talk to the platform: the gateway pool and the operator secrets. */
export interface Gateway {
  pool: Pool;
  apiKey: string;
  adminAccessToken: string;
}

export const PASSWORD = 'a long soak password';

export function gatewayOf(platform: Platform, pool: Pool): Gateway {
  return {
    pool,
    apiKey: platform.env.keys.apiKey,
    adminAccessToken: platform.env.keys.adminAccessToken,
  };
}

/** A `/v1/api` call through the gateway with the Api-Key (and a bearer token when given). */
export async function call(
  gw: Gateway,
  method: string,
  path: string,
  options: {
    token?: string;
    body?: unknown;
    headers?: Record<string, string>;
    /** Only the status and headers (the body is dropped unread). */
    raw?: boolean;
  } = {},
): Promise<{ status: number; json?: any; headers?: Record<string, unknown> }> {
  if (options.raw) {
    const res = await gw.pool.request({
      method,
      path: `/v1/api${path}`,
      headers: {
        'api-key': gw.apiKey,
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...options.headers,
      },
    });
    await res.body.dump();
    return { status: res.statusCode, headers: res.headers };
  }
  return request(gw.pool, {
    method,
    path: path.startsWith('/api/public') ? path : `/v1/api${path}`,
    headers: {
      'api-key': gw.apiKey,
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    body: options.body,
  });
}

function expectStatus(what: string, res: { status: number; json?: any }, ...ok: number[]): void {
  if (!ok.includes(res.status)) {
    throw new Error(`${what} answered ${res.status}: ${JSON.stringify(res.json).slice(0, 300)}`);
  }
}

/**
 * Signs a new user up the way a client app does: registration (no activation in the bench),
 * an organization and a project. Three requests; the wallet and analytics follow by events.
 */
export async function signUp(gw: Gateway, tag: string): Promise<Omit<Account, 'keys' | 'wallet'>> {
  const email = `soak-${tag}-${randomUUID().slice(0, 8)}@soak.example.com`;
  const registered = await call(gw, 'POST', '/users', {
    body: { username: email, password: PASSWORD },
  });
  expectStatus('registration', registered, 200);
  const { accessToken: token, refreshToken } = registered.json.data.attributes;
  const organization = await call(gw, 'POST', '/organizations', {
    token,
    body: { data: { type: 'organization', attributes: { name: `Soak ${tag}` } } },
  });
  expectStatus('organization', organization, 200, 201);
  const organizationId = Number(organization.json.data.id);
  const project = await call(gw, 'POST', `/organizations/${organizationId}/projects`, {
    token,
    body: { data: { type: 'project', attributes: { name: `Soak project ${tag}` } } },
  });
  expectStatus('project', project, 200, 201);
  return {
    email,
    password: PASSWORD,
    token,
    refreshToken,
    organizationId,
    projectId: Number(project.json.data.id),
  };
}

/** Polls until `read` gives a value (events arrive in milliseconds; 30 s bound). */
async function eventually<T>(what: string, read: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not appear within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * The seeded users of the load: `count` sign-ups, each with its project's key pair and a
 * personal wallet credited with 1,000,000 CREDITS (so transfers never run dry).
 */
export async function seed(gw: Gateway, count: number): Promise<Account[]> {
  const accounts: Account[] = [];
  for (let i = 0; i < count; i++) {
    const base = await signUp(gw, `seed${i}`);
    const secret = await call(
      gw,
      'GET',
      `/organizations/${base.organizationId}/projects/${base.projectId}?secret=true`,
      { token: base.token },
    );
    expectStatus('project secrets', secret, 200);
    const wallet = await eventually('the personal wallet', async () => {
      const list = await call(gw, 'GET', '/wallets?entity_type=user', { token: base.token });
      return (list.json?.data?.[0]?.address_hash as string | undefined) ?? undefined;
    });
    const credited = await call(gw, 'POST', `/wallets/${wallet}/credits`, {
      token: base.token,
      headers: { 'admin-access': gw.adminAccessToken },
      body: { credit: { amount: 1_000_000, description: 'soak seed' } },
    });
    expectStatus('credit', credited, 201);
    accounts.push({ ...base, keys: secret.json.meta.secrets, wallet });
  }
  // Analytics learns each key pair from `org.project.keys.changed`: wait for the last one.
  const last = accounts[accounts.length - 1];
  await eventually('analytics accepting the key pairs', async () => {
    const res = await request(gw.pool, {
      path: '/api/public/traces?limit=1',
      headers: { authorization: basic(last.keys) },
    });
    return res.status === 200 ? true : undefined;
  });
  return accounts;
}

/** HTTP Basic credentials of a project key pair (Langfuse's authentication). */
export function basic(keys: { publicKey: string; secretKey: string }): string {
  return `Basic ${Buffer.from(`${keys.publicKey}:${keys.secretKey}`).toString('base64')}`;
}
