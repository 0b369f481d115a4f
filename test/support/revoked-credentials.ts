import { waitFor } from '@wp/testing';
import { ApplicationsService } from '../../apps/auth/src/modules/applications/applications.service.js';
import type { PlatformStack } from './stack.js';
import { walletJourneys, type Account } from './wallet-journeys.js';

/** One request a revoked credential must never get a 2xx for, on one service. */
export interface Probe {
  what: string;
  send: () => Promise<{ status: number; body: any }>;
}

/** The world of test/e2e/redis-emptied: credentials revoked every way, and some that are not. */
export interface RevokedCredentials {
  /** Requests with revoked credentials, on every service that takes them. */
  probes: Probe[];
  /** A user whose token was never revoked: works again once the stores are rebuilt. */
  valid: Account;
}

/** Whether an answer let the request through. */
export function accepted(status: number): boolean {
  return status >= 200 && status < 300;
}

/** The `sid` claim of an access token (its session). */
export function sessionOf(token: string): string {
  const payload = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
  return payload.sid as string;
}

/**
 * A new client application's Api-Key, registered in auth (and so in the shared registry) but
 * never used: no process has it in its cache, every check of it reads the registry.
 */
export async function unusedApiKey(stack: PlatformStack): Promise<string> {
  const applications = stack.apps.get('auth')!.get(ApplicationsService);
  return (await applications.create(`unused-${Date.now()}`)).apiKey;
}

/**
 * Builds, through the gateway, credentials revoked every way the platform revokes them — logout,
 * a session ended by its user, a refresh token family ended by reuse (the stack must run with
 * `REFRESH_GRACE_SECONDS=0`), a Sentinel Pass revoked, a pass narrowed by a `PUT`, a project key
 * pair deleted, an ADMIN lowered to VIEWER — after calling `beforeRevoking` (e.g. killing NATS, so
 * that no read model learns of them by event and only the deny-list and the permission versions
 * refuse them). Checks each is refused right after, and returns the probes.
 */
export async function revokeEveryWay(
  stack: PlatformStack,
  beforeRevoking: () => Promise<void>,
): Promise<RevokedCredentials> {
  const j = walletJourneys(() => stack);
  const owner = await j.signUp('owner');
  const admin = await j.signUp('admin');
  const loggedOut = await j.signUp('logged-out');
  const ended = await j.signUp('ended');
  const valid = await j.signUp('valid');
  const { orgId, address } = await j.organization(owner, admin);
  const payee = await j.userWallet(owner);
  const { projectId } = await j.projectWallet(owner, orgId);
  const P = `/v1/api/organizations/${orgId}/projects/${projectId}`;
  expect((await j.transact(admin, address, payee)).status).toBe(201);

  // A second session of `ended`, which ends the first.
  const login = await stack.request('POST', '/v1/api/oauth/token', {
    body: { username: ended.email, password: 'a long password' },
  });
  expect(login.status).toBe(200);
  const endedBy = login.body.data.attributes.accessToken as string;

  // A refresh token family: rotated once, then its first token replayed (reuse).
  const family = await stack.request('POST', '/v1/api/users', {
    body: { username: `family-${Date.now()}@withdrawn.example.com`, password: 'a long password' },
  });
  const firstRefresh = family.body.data.attributes.refreshToken as string;
  const rotated = await stack.request('POST', '/v1/api/oauth/token/refresh', {
    body: { refresh_token: firstRefresh },
  });
  expect(rotated.status).toBe(200);
  const familyToken = rotated.body.data.attributes.accessToken as string;

  // Two Sentinel Passes with an agent token each, and two project key pairs.
  const agent = async (title: string) => {
    const created = await stack.request('POST', `${P}/sentinel_passes`, {
      token: owner.token,
      body: { sentinelPass: { title, permissions: ['read', 'write'] } },
    });
    expect(created.status).toBe(201);
    const passId = created.body.data.id as string;
    const token = await waitFor(
      async () => {
        const res = await stack.request('POST', '/v1/api/oauth/token', {
          body: {
            grant_type: 'client_credentials',
            client_id: passId,
            client_secret: created.body.meta.secret,
          },
        });
        return res.status === 200 ? (res.body.data.attributes.accessToken as string) : undefined;
      },
      { timeoutMs: 10_000, what: 'auth exchanging the pass key' },
    );
    return { passId, token, key: created.body.meta.secret as string };
  };
  const revokedPass = await agent('revoked');
  const narrowedPass = await agent('narrowed');
  const pair = async () => {
    const res = await stack.request('POST', `${P}/api_keys`, {
      token: owner.token,
      body: { data: { attributes: { note: 'traces' } } },
    });
    expect(res.status).toBe(201);
    const basic = Buffer.from(
      `${res.body.data.attributes.publicKey}:${res.body.meta.secretKey}`,
    ).toString('base64');
    const traces = () =>
      stack.request('GET', '/api/public/traces', { headers: { authorization: `Basic ${basic}` } });
    await waitFor(async () => (await traces()).status === 200, {
      timeoutMs: 10_000,
      what: 'analytics accepting the key pair',
    });
    return { id: res.body.data.id as string, traces };
  };
  const deletedPair = await pair();

  await beforeRevoking();

  const revocations = [
    stack.request('GET', '/v1/api/oauth/token/revoke', { token: loggedOut.token }),
    stack.request('DELETE', `/v1/api/users/me/sessions/${sessionOf(ended.token)}`, {
      token: endedBy,
    }),
    stack.request('POST', '/v1/api/oauth/token/refresh', { body: { refresh_token: firstRefresh } }),
    stack.request('POST', `${P}/sentinel_passes/${revokedPass.passId}/revoke`, {
      token: owner.token,
    }),
    stack.request('PUT', `${P}/sentinel_passes/${narrowedPass.passId}`, {
      token: owner.token,
      body: { sentinelPass: { permissions: ['read'] } },
    }),
    stack.request('DELETE', `${P}/api_keys/${deletedPair.id}`, { token: owner.token }),
    j.setRole(orgId, owner, admin, 'VIEWER'),
  ];
  const answers = [];
  for (const revocation of revocations) answers.push(await revocation);
  expect(answers.map((res) => res.status)).toEqual([200, 204, 401, 200, 200, 204, 200]);

  const userProbes = (who: string, token: string): Probe[] => [
    { what: `${who} on org`, send: () => stack.request('GET', '/v1/api/organizations', { token }) },
    {
      what: `${who} on wallet`,
      send: () => stack.request('GET', '/v1/api/wallets?entity_type=user', { token }),
    },
    {
      what: `${who} on auth`,
      send: () => stack.request('GET', '/v1/api/oauth/token/info', { token }),
    },
  ];
  const agentProbes = (who: string, token: string): Probe[] => [
    { what: `${who} on org`, send: () => stack.request('GET', P, { token }) },
    {
      what: `${who} on wallet`,
      send: () => stack.request('GET', `/v1/api/wallets?entity_type=project`, { token }),
    },
    {
      what: `${who} on auth`,
      send: () => stack.request('GET', '/v1/api/oauth/token/info', { token }),
    },
  ];
  const probes: Probe[] = [
    ...userProbes('logged-out token', loggedOut.token),
    ...userProbes('token of an ended session', ended.token),
    ...userProbes('token of an ended refresh token family', familyToken),
    ...agentProbes('token of a revoked pass', revokedPass.token),
    ...agentProbes('token of a narrowed pass', narrowedPass.token),
    {
      what: 'key of a revoked pass exchanged at auth',
      send: () =>
        stack.request('POST', '/v1/api/oauth/token', {
          body: {
            grant_type: 'client_credentials',
            client_id: revokedPass.passId,
            client_secret: revokedPass.key,
          },
        }),
    },
    { what: 'deleted key pair on analytics', send: deletedPair.traces },
    { what: 'ADMIN lowered to VIEWER on wallet', send: () => j.transact(admin, address, payee) },
  ];
  for (const probe of probes) {
    const { status } = await probe.send();
    expect({ probe: probe.what, accepted: accepted(status) }).toEqual({
      probe: probe.what,
      accepted: false,
    });
  }
  return { probes, valid };
}
