import fc from 'fast-check';
import { sample } from 'openapi-sampler';
import { setAt, type FuzzRequest } from './fuzz-request.js';
import { garbage, mutations } from './mutations.js';
import { resolve, type FuzzOperation, type OpenApiDocument, type Schema } from './operations.js';
import type { FuzzTenant } from './tenant.js';

/** The id a path parameter of an operation takes in the tenant. */
export function pathValue(tenant: FuzzTenant, operation: FuzzOperation, name: string): string {
  const ids = tenant.ids;
  const t = operation.template;
  if (name === 'projectId' && operation.method === 'DELETE' && t.endsWith('{projectId}')) {
    return ids['spareProjectId'];
  }
  if (name === 'invitationId' && t.includes('/projects/')) return ids['projectInvitationId'];
  if (name === 'apiKeyId' && t.includes('/llm_api_keys/')) return ids['llmApiKeyId'];
  if (name === 'userId' && t.startsWith('/v1/api/users/')) return tenant.login.id;
  if (name === 'stepId') return 'fuzz_step';
  return ids[name] ?? 'unknown';
}

/** `type` of a JSON:API body, by the collection the path names. */
function resourceType(template: string): string | undefined {
  const types: [RegExp, string][] = [
    [/\/security_policy$/, 'security_policy'],
    [/\/llm_api_keys$/, 'llm_api_keys'],
    [/\/webhook_endpoints(\/\{endpointId\})?$/, 'webhook_endpoints'],
    [/\/invitations(\/\{invitationId\})?$/, 'membershipInvitation'],
    [/\/add_user$/, 'users'],
    [/\/projects(\/\{projectId\})?$/, 'project'],
    [/\/organizations(\/\{organizationId\})?$/, 'organization'],
  ];
  return types.find(([pattern]) => pattern.test(template))?.[1];
}

/**
 * Real values for body fields, by name: what makes a sampled body reach the handler instead of
 * its validation (wallet addresses the owner controls, an existing member's email, …).
 */
function fieldValues(tenant: FuzzTenant, operation: FuzzOperation): Record<string, unknown> {
  const ids = tenant.ids;
  const lastParameter = operation.pathParameters.at(-1);
  return {
    email: tenant.member.email,
    username: tenant.login.email,
    password: operation.template.includes('/two_factor')
      ? tenant.owner.password
      : tenant.login.password,
    current_password: tenant.owner.password,
    new_password: tenant.owner.password,
    refresh_token: tenant.login.refreshToken,
    client_id: ids['passId'],
    client_secret: tenant.passSecret,
    grant_type: 'password',
    from_wallet: ids['ownerWallet'],
    to_wallet: ids['addressHash'],
    amount: 1,
    asset: 'CREDITS',
    from_asset: 'CREDITS',
    to_asset: 'CREDITS',
    currency: 'CREDITS',
    role: 'MEMBER',
    organization_role: 'MEMBER',
    orgRole: 'member',
    projectRole: 'member',
    provider: 'openai',
    secretKey: 'sk-fuzz-0123456789',
    name: 'Fuzzed name',
    title: 'Fuzzed title',
    note: 'fuzzed note',
    description: 'fuzzed',
    expires_at: '2031-01-31T12:00:00Z',
    expiresAt: '2031-01-31T12:00:00Z',
    entity_type: 'organization',
    entity_id: ids['organizationId'],
    entity_name: 'Fuzzed wallet',
    purpose: 'general',
    entityType: 'project',
    entityId: ids['projectId'],
    credentialType: 'api_key',
    permissions: ['wallets:read'],
    scopes: ['read'],
    allowedReferers: ['https://fuzz.example.com'],
    tags: ['fuzz'],
    requireTwoFactor: false,
    current_organization_id: Number(ids['organizationId']),
    current_project_id: Number(ids['projectId']),
    verification_code: '000000',
    code: '000000',
    ...(lastParameter !== undefined && { id: pathValue(tenant, operation, lastParameter) }),
    ...(resourceType(operation.template) !== undefined && {
      type: resourceType(operation.template),
    }),
  };
}

/** Replaces, in place, every field of a sampled body whose name has a real value. */
function withRealValues(value: unknown, values: Record<string, unknown>, depth = 0): unknown {
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => withRealValues(v, values, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = key in values ? values[key] : withRealValues(v, values, depth + 1);
  }
  return out;
}

/**
 * A body the document calls valid: openapi-sampler's sample of the schema (every property, or
 * the required ones only) with the tenant's real values in the fields that name things.
 * @see https://github.com/Redocly/openapi-sampler
 */
export function validBody(
  document: OpenApiDocument,
  tenant: FuzzTenant,
  operation: FuzzOperation,
  requiredOnly = false,
): unknown {
  if (!operation.body) return undefined;
  const sampled = sample(
    operation.body,
    { skipReadOnly: true, skipNonRequired: requiredOnly, quiet: true },
    document,
  );
  return withRealValues(sampled, fieldValues(tenant, operation));
}

/** Headers of the operation's security requirement, with the tenant's credentials. */
export function credentials(tenant: FuzzTenant, operation: FuzzOperation): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const scheme of operation.security) {
    if (scheme === 'apiKey') headers['api-key'] = tenant.stack.apiKey;
    if (scheme === 'bearer') headers['authorization'] = `Bearer ${tenant.owner.token}`;
    if (scheme === 'adminAccess') headers['admin-access'] = tenant.stack.env.keys.adminAccessToken;
    if (scheme === 'basic') {
      headers['authorization'] = `Basic ${Buffer.from(tenant.keyPair).toString('base64')}`;
    }
  }
  return headers;
}

/** A query value the parameter's schema allows (its example, enum or type). */
function queryValue(document: OpenApiDocument, schema: Schema): string {
  const value = sample(resolve(document, schema), { quiet: true }, document);
  return Array.isArray(value) ? value.join(',') : String(value);
}

/** The valid request of an operation: real ids in the path, a sampled body, its credentials. */
export function validRequest(
  document: OpenApiDocument,
  tenant: FuzzTenant,
  operation: FuzzOperation,
): FuzzRequest {
  const path = operation.template.replace(/\{([^}]+)\}/g, (_m, name: string) =>
    encodeURIComponent(pathValue(tenant, operation, name)),
  );
  const query: Record<string, string> = {};
  for (const parameter of operation.query) {
    if (parameter.required) query[parameter.name] = queryValue(document, parameter.schema);
  }
  const body = validBody(document, tenant, operation);
  return {
    kind: 'valid',
    method: operation.method,
    path,
    query,
    headers: credentials(tenant, operation),
    body: body === undefined ? undefined : { json: body },
  };
}

/**
 * The requests of one operation: the valid one, then `runs` generated by fast-check from
 * `seed` (three in four mutations of the valid one, one in four garbage): the same seed gives
 * the same requests.
 */
export function requestsFor(
  document: OpenApiDocument,
  tenant: FuzzTenant,
  operation: FuzzOperation,
  seed: number,
  runs: number,
): (() => FuzzRequest)[] {
  const changes = fc.sample(
    fc.oneof(
      { arbitrary: mutations(document, operation), weight: 3 },
      { arbitrary: garbage(), weight: 1 },
    ),
    { seed, numRuns: runs },
  );
  // Built when sent: the valid request reads the tenant's credentials of that moment.
  const valid = () => validRequest(document, tenant, operation);
  return [
    valid,
    ...changes.map((change) => (): FuzzRequest => {
      const mutated = change(valid());
      const kind: FuzzRequest['kind'] = mutated.kind === 'garbage' ? 'garbage' : 'mutated';
      return { ...mutated, kind };
    }),
  ];
}

export { setAt, type FuzzRequest };
