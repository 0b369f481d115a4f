import { PlatformStack } from './stack.js';

/**
 * Shared by the contract conformance tests (test/e2e/contract-conformance-*.e2e-spec.ts): the
 * patterns they check, the error body and ETag checks, and their platform with one owner, one
 * stranger and one organization.
 */
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const TOKEN = /^[A-Za-z0-9._-]+$/;

/** docs/architecture.md § Error body: `{errors: [{status: "<string>", code, title, …}]}`. */
export function expectError(res: { status: number; body: any }, status: number, code?: string) {
  expect(res.status).toBe(status);
  expect(Array.isArray(res.body.errors)).toBe(true);
  expect(res.body.errors.length).toBeGreaterThan(0);
  for (const error of res.body.errors) {
    expect(error.status).toBe(String(status));
    expect(typeof error.code).toBe('string');
    expect(typeof error.title).toBe('string');
  }
  if (code) expect(res.body.errors.map((e: any) => e.code)).toContain(code);
}

/** docs/architecture.md § Caching: a single resource's GET carries an ETag; a match is 304. */
export async function expectEtagOf(
  stack: PlatformStack,
  token: string,
  path: string,
): Promise<string> {
  const headers = { 'api-key': stack.apiKey, authorization: `Bearer ${token}` };
  const first = await fetch(`${stack.gatewayUrl}${path}`, { headers });
  expect(first.status).toBe(200);
  const etag = first.headers.get('etag');
  expect(etag).toMatch(/^(W\/)?"[A-Za-z0-9_-]+"$/);
  const again = await fetch(`${stack.gatewayUrl}${path}`, {
    headers: { ...headers, 'if-none-match': etag! },
  });
  expect(again.status).toBe(304);
  expect(await again.text()).toBe('');
  return etag!;
}

async function register(stack: PlatformStack, email: string): Promise<string> {
  const res = await stack.request('POST', '/v1/api/users', {
    body: { username: email, password: 'a long password' },
  });
  expect(res.status).toBe(200);
  return res.body.data.attributes.accessToken;
}

/**
 * The whole platform (PlatformStack) with `token` OWNER of organization `orgId` ('Conformance
 * Org': its default project and the project `projectId`, 'Agents') and `strangerToken` in no
 * organization.
 */
export interface ConformanceWorld {
  stack: PlatformStack;
  token: string;
  strangerToken: string;
  orgId: string;
  projectId: string;
  defaultProjectId: string;
}

/**
 * Declares the test file's {@link ConformanceWorld}: `beforeAll` starts it and fills in the
 * returned object (read its fields inside tests, not while declaring), `afterAll` closes the
 * platform.
 */
export function useConformanceWorld(): ConformanceWorld {
  const world = {} as ConformanceWorld;
  beforeAll(async () => {
    Object.assign(world, await startConformanceWorld());
  });
  afterAll(() => world.stack?.close());
  return world;
}

async function startConformanceWorld(): Promise<ConformanceWorld> {
  const stack = await PlatformStack.start();
  try {
    const token = await register(stack, 'conformance-owner@example.com');
    const strangerToken = await register(stack, 'conformance-stranger@example.com');
    const org = await stack.request('POST', '/v1/api/organizations', {
      token,
      body: { data: { type: 'organization', attributes: { name: 'Conformance Org' } } },
    });
    expect(org.status).toBe(200);
    const orgId: string = org.body.data.id;
    const project = await stack.request('POST', `/v1/api/organizations/${orgId}/projects`, {
      token,
      body: { data: { type: 'project', attributes: { name: 'Agents' } } },
    });
    expect(project.status).toBe(201);
    const projectId: string = project.body.data.id;
    const projects = await stack.request('GET', `/v1/api/organizations/${orgId}/projects`, {
      token,
    });
    const defaultProjectId: string = projects.body.data.find((p: any) => p.attributes.isDefault).id;
    return { stack, token, strangerToken, orgId, projectId, defaultProjectId };
  } catch (error) {
    await stack.close();
    throw error;
  }
}
