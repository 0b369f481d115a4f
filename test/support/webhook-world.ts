import { randomBytes } from 'node:crypto';
import type { WebhookEvent } from '@wp/contracts';
import { waitFor } from '@wp/testing';
import type { PlatformStack } from './stack.js';

/** A signed-up account. */
export interface Account {
  id: string;
  email: string;
  token: string;
}

/** Where the webhook e2e tests' receivers listen: the one address the allow-list opens. */
export const RECEIVER_HOST = '127.0.0.2';

/**
 * Settings of the webhook e2e stacks: receivers on 127.0.0.2 only (127.0.0.1, where the
 * platform itself listens, stays refused like any private address), a compressed retry
 * schedule (0, 300 ms, 300 ms, …), no jitter, polling every 100 ms.
 */
export const WEBHOOK_TEST_ENV: Record<string, string> = {
  WEBHOOK_ALLOWED_PRIVATE_ADDRESSES: RECEIVER_HOST,
  WEBHOOK_RETRY_SCHEDULE_MS: '0,300,300,300,300',
  WEBHOOK_RETRY_JITTER: '0',
  WEBHOOK_POLL_INTERVAL_MS: '100',
  WEBHOOK_SECRET_OVERLAP_SECONDS: '3',
  LOG_LEVEL: 'warn',
  LOG_FORMAT: 'json',
};

/**
 * A `member.added` event of organization `organizationId` (docs/org.md § Webhooks, Events) with
 * a fresh `evt_` id, as `WebhookPublisher.publish` takes it — for tests and benches that publish
 * straight to org without a member change; `extra` joins `data` (e.g. a sequence number).
 */
export function memberAddedEvent(
  organizationId: string,
  extra: Record<string, unknown> = {},
): WebhookEvent {
  return {
    id: `evt_${randomBytes(16).toString('hex')}`,
    type: 'member.added',
    version: 1,
    timestamp: new Date().toISOString(),
    organization_id: organizationId,
    project_id: null,
    actor: null,
    data: {
      user: { id: '00000000-0000-4000-8000-000000000000', email: null },
      role: 'MEMBER',
      ...extra,
    },
  };
}

/** The account, organization and endpoint calls the webhook e2e tests make through the gateway. */
export function webhookWorld(stack: () => PlatformStack, label: string) {
  let counter = 0;
  const signUp = async (who: string): Promise<Account> => {
    const email = `${who}-${++counter}-${Date.now()}@${label}.example.com`;
    const res = await stack().request('POST', '/v1/api/users', {
      body: { username: email, password: 'a long password' },
    });
    if (res.status !== 200) throw new Error(`sign-up ${res.status}: ${JSON.stringify(res.body)}`);
    return { id: res.body.data.id, email, token: res.body.data.attributes.accessToken };
  };
  const newOrganization = async (owner: Account, name = 'Hooks'): Promise<string> => {
    const res = await stack().request('POST', '/v1/api/organizations', {
      token: owner.token,
      body: { data: { type: 'organization', attributes: { name } } },
    });
    if (res.status !== 200) throw new Error(`organization ${res.status}`);
    return res.body.data.id as string;
  };
  const newProject = async (owner: Account, orgId: string, name: string): Promise<string> => {
    const res = await stack().request('POST', `/v1/api/organizations/${orgId}/projects`, {
      token: owner.token,
      body: { data: { type: 'project', attributes: { name } } },
    });
    if (res.status !== 201 && res.status !== 200) throw new Error(`project ${res.status}`);
    return String(res.body.data.id);
  };
  const addMember = async (orgId: string, by: Account, who: Account, role = 'MEMBER') => {
    const res = await stack().request('POST', `/v1/api/organizations/${orgId}/add_user`, {
      token: by.token,
      body: { data: { type: 'users', attributes: { email: who.email, role } } },
    });
    if (res.status !== 201) throw new Error(`add_user ${res.status}: ${JSON.stringify(res.body)}`);
  };
  const endpoints = (orgId: string) => `/v1/api/organizations/${orgId}/webhook_endpoints`;
  const createEndpoint = (by: Account, orgId: string, attributes: Record<string, unknown>) =>
    stack().request('POST', endpoints(orgId), {
      token: by.token,
      body: { data: { type: 'webhook_endpoints', attributes } },
    });
  /** Creates an endpoint, expecting 201; returns its id and secret. */
  const endpoint = async (by: Account, orgId: string, attributes: Record<string, unknown>) => {
    const res = await createEndpoint(by, orgId, attributes);
    if (res.status !== 201) throw new Error(`endpoint ${res.status}: ${JSON.stringify(res.body)}`);
    return { id: res.body.data.id as string, secret: res.body.meta.secret as string };
  };
  const deliveries = async (by: Account, orgId: string, endpointId: string, query = '') => {
    const res = await stack().request(
      'GET',
      `${endpoints(orgId)}/${endpointId}/deliveries${query}`,
      { token: by.token },
    );
    if (res.status !== 200) throw new Error(`deliveries ${res.status}`);
    return res.body.data as { id: string; attributes: any }[];
  };
  /** The endpoint's deliveries once the newest has `status` (4 s by default). */
  const deliveriesOnce = async (
    by: Account,
    orgId: string,
    endpointId: string,
    status: string,
    timeoutMs = 4000,
  ) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const rows = await deliveries(by, orgId, endpointId);
      if (rows[0]?.attributes.status === status) return rows;
      if (Date.now() > deadline) {
        throw new Error(`delivery not ${status}: ${JSON.stringify(rows[0]?.attributes)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const ping = (by: Account, orgId: string, endpointId: string) =>
    stack().request('POST', `${endpoints(orgId)}/${endpointId}/test`, { token: by.token });
  /** Waits until `count()` reaches `n` (2 s by default). */
  const until = (count: () => number, n: number, timeoutMs = 2000, what = `${n} requests`) =>
    waitFor(() => (count() >= n ? true : undefined), { timeoutMs, what });
  return {
    signUp,
    newOrganization,
    newProject,
    addMember,
    endpoints,
    createEndpoint,
    endpoint,
    deliveries,
    deliveriesOnce,
    ping,
    until,
  };
}
