import type { FuzzOperation } from './operations.js';
import type { FuzzRequest } from './requests.js';
import type { FuzzTenant } from './tenant.js';

export interface FuzzAnswer {
  status: number;
  body: string;
  /** Set when no answer came (a timeout or a broken connection). */
  failure?: string;
}

/** Sends one request through the gateway (15 s bound); a fetch failure is an answer too. */
export async function send(tenant: FuzzTenant, request: FuzzRequest): Promise<FuzzAnswer> {
  const query = new URLSearchParams(request.query).toString();
  const url = `${tenant.stack.gatewayUrl}${request.path}${query ? `?${query}` : ''}`;
  const headers = { ...request.headers };
  let body: string | undefined;
  if (request.body && request.method !== 'GET' && request.method !== 'HEAD') {
    if ('raw' in request.body) body = request.body.raw;
    else if (request.body.json !== undefined) body = JSON.stringify(request.body.json);
    if (body !== undefined && !('content-type' in headers)) {
      headers['content-type'] = 'application/json';
    }
    if (headers['content-type'] === '') delete headers['content-type'];
  }
  try {
    const res = await fetch(url, {
      method: request.method,
      headers,
      body,
      signal: AbortSignal.timeout(15_000),
    });
    return { status: res.status, body: await res.text() };
  } catch (error) {
    return { status: 0, body: '', failure: (error as Error).message };
  }
}

/**
 * Keeps the tenant usable after what a request did to it: a password changed by
 * `POST /users/password/change` is remembered, and when the owner's token stopped working
 * (sessions ended, logout) the owner logs in again.
 */
export async function heal(
  tenant: FuzzTenant,
  operation: FuzzOperation,
  request: FuzzRequest,
  answer: FuzzAnswer,
): Promise<void> {
  const sent = request.body && 'json' in request.body ? request.body.json : undefined;
  if (operation.template === '/v1/api/users/password/change' && answer.status === 200) {
    const password = (sent as { new_password?: unknown } | undefined)?.new_password;
    if (typeof password === 'string') tenant.owner.password = password;
  }
  if (answer.status !== 401 && answer.status !== 403) return;
  const probe = await tenant.stack.request('GET', '/v1/api/organizations', {
    token: tenant.owner.token,
  });
  if (probe.status === 401) await tenant.relogin(tenant.owner);
}

/**
 * The fixture's one guard on generated bodies: the organization's two-factor policy is never
 * turned on (the owner has no second factor and would be shut out of every later request).
 */
export function guarded(operation: FuzzOperation, request: FuzzRequest): FuzzRequest {
  if (!operation.template.endsWith('/security_policy') || !request.body) return request;
  if (!('json' in request.body)) return request;
  const text = JSON.stringify(request.body.json ?? null);
  if (!text.includes('"requireTwoFactor":true')) return request;
  return {
    ...request,
    body: { raw: text.replace(/"requireTwoFactor":true/g, '"requireTwoFactor":false') },
  };
}
